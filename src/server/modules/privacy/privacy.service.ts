// Privacy review of break-the-glass accesses (docs/decisions/018-privacy-review.md): the queue with its flags, the
// detail of one access (what was read and changed during its grant), verdicts as audit rows, the reviewer's counts,
// the VIP/restricted marker, and the counts the patient portal tells the patient.
import {
  recordVerdictInput,
  reviewQueueQuery,
  type BreakGlassAccess,
  type BreakGlassDetail,
  type RecordVerdictInput,
  type ReviewQueuePage,
  type ReviewQueueQueryInput,
  type ReviewSummary,
  type ReviewVerdict,
  type ReviewVerdictRecord,
} from '../../../contracts/privacy-review';
import { auditActorOf } from '../../audit/audit-writer';
import type { PrivacyThresholds } from '../../config';
import type { StaffActor } from '../../context/actor';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../errors/app-error';
import { parseOr400 } from '../audit/parse';
import { withPresentedValues } from '../audit/audit-values';
import { flagsOf } from './flags';
import * as repo from './privacy.repository';

/** The detail view lists at most this many audit rows of one grant. */
export const GRANT_ACTIVITY_LIMIT = 500;
const GRANT_HOURS_FALLBACK = 8;

const breakGlassNotFound = (): AppError => new AppError('BREAK_GLASS_ACCESS_NOT_FOUND', 'Break-the-glass access not found');

function toAccess(row: repo.BreakGlassRow, limits: PrivacyThresholds): BreakGlassAccess {
  return {
    id: row.id,
    at: row.at,
    user: {
      id: row.userId,
      name: row.userName,
      role: row.roleName && row.roleDisplayName ? { name: row.roleName, displayName: row.roleDisplayName } : null,
    },
    facility: row.facility ?? row.userFacility,
    patient: { id: row.patientId, name: row.patientName, restricted: row.restricted },
    reason: row.reason,
    flags: flagsOf(row, limits),
    review:
      row.reviewVerdict && row.reviewerId && row.reviewedAt
        ? {
            verdict: row.reviewVerdict as ReviewVerdict,
            note: row.reviewNote ?? '',
            reviewerId: row.reviewerId,
            reviewerName: row.reviewerName ?? '',
            at: row.reviewedAt,
          }
        : null,
  };
}

/** GET /api/privacy-reviews: a page of break-the-glass accesses, newest first, audited as VIEW AUDIT_LOG. */
export async function readReviewQueue(
  scope: RequestScope<StaffActor>,
  limits: PrivacyThresholds,
  query: ReviewQueueQueryInput,
): Promise<ReviewQueuePage> {
  const q = parseOr400(reviewQueueQuery, query, 'Invalid review filters');
  const criteria: repo.QueueCriteria = {
    status: q.status,
    facility: q.facility,
    userId: q.userId,
    patientId: q.patientId,
    limit: q.pageSize,
    offset: (q.page - 1) * q.pageSize,
  };
  const { rows, total } = await inAuditedTransaction(scope, async (ctx) => {
    const page = {
      rows: await repo.selectBreakGlass(ctx.tx, criteria, limits.bulkSearchMinutes),
      total: await repo.countBreakGlass(ctx.tx, criteria),
    };
    return ctx.audited(page, {
      action: 'VIEW',
      resourceType: 'AUDIT_LOG',
      newValues: { privacyReview: { filters: q, returned: page.rows.length } },
    });
  });
  return { items: rows.map((r) => toAccess(r, limits)), page: q.page, pageSize: q.pageSize, total };
}

const toVerdict = (v: repo.VerdictRow): ReviewVerdictRecord => ({ ...v, verdict: v.verdict as ReviewVerdict });

async function detailOf(tx: DbOrTx, id: number, limits: PrivacyThresholds): Promise<BreakGlassDetail | null> {
  const [row] = await repo.selectBreakGlass(tx, { status: 'all', id, limit: 1, offset: 0 }, limits.bulkSearchMinutes);
  if (!row) return null;
  const expires =
    row.grantExpiresAt && !Number.isNaN(Date.parse(row.grantExpiresAt))
      ? new Date(row.grantExpiresAt)
      : new Date(Date.parse(row.at) + GRANT_HOURS_FALLBACK * 3_600_000);
  const activity = await repo.selectGrantActivity(tx, {
    userId: row.userId,
    patientId: row.patientId,
    from: row.at,
    until: expires.toISOString(),
    excludeId: row.id,
    limit: GRANT_ACTIVITY_LIMIT,
  });
  const reviews = (await repo.selectVerdicts(tx, id)).map(toVerdict);
  const presented = activity.map((a) => {
    const { eventValues: _event, ...item } = withPresentedValues(a);
    return item;
  });
  return { access: toAccess(row, limits), grantExpiresAt: expires.toISOString(), activity: presented, reviews };
}

/** GET /api/privacy-reviews/{id}: one access with what was done during its grant; 404 for any other row. */
export async function readReviewDetail(scope: RequestScope<StaffActor>, limits: PrivacyThresholds, id: number): Promise<BreakGlassDetail> {
  return inAuditedTransaction(scope, async (ctx) => {
    const detail = await detailOf(ctx.tx, id, limits);
    if (!detail) throw breakGlassNotFound();
    return ctx.audited(detail, {
      action: 'VIEW',
      resourceType: 'AUDIT_LOG',
      resourceId: id,
      patientId: detail.access.patient.id,
      newValues: { privacyReview: { breakGlassId: id, activity: detail.activity.length } },
    });
  });
}

/**
 * POST /api/privacy-reviews/{id}/verdict: the verdict is an audit row (CREATE ACCESS_REVIEW, resourceId the access's
 * row id). 404 for a row that is not a break-the-glass access; 403 REVIEW_OWN_ACCESS for one's own access, and
 * REVIEW_OWN_CLIENT_ACCESS for one made by a system client the reviewer created.
 */
export async function recordVerdict(scope: RequestScope<StaffActor>, id: number, input: RecordVerdictInput): Promise<ReviewVerdictRecord> {
  const v = parseOr400(recordVerdictInput, input, 'Invalid verdict');
  const who = auditActorOf(scope.actor);
  return inAuditedTransaction(scope, async (ctx) => {
    const access = await repo.selectBreakGlassAccess(ctx.tx, id);
    if (!access) throw breakGlassNotFound();
    if (access.userId === who.userId) throw new AppError('REVIEW_OWN_ACCESS', 'You cannot review your own break-the-glass access');
    // Nor one made by a system client one created (issue 21 item 5): the client acted on its creator's word.
    if (access.clientCreatedBy === who.userId) {
      throw new AppError('REVIEW_OWN_CLIENT_ACCESS', 'You cannot review an access made by a system client you created');
    }
    const record = { verdict: v.verdict, note: v.note, reviewerId: who.userId, reviewerName: who.userName, at: ctx.now.toISOString() };
    return ctx.audited(record, {
      action: 'CREATE',
      resourceType: 'ACCESS_REVIEW',
      resourceId: id,
      patientId: access.patientId,
      newValues: { verdict: v.verdict, note: v.note, reviewedUserId: access.userId },
    });
  });
}

/** GET /api/privacy-reviews/summary: counts only, no patient data. */
export async function readReviewSummary(db: Db): Promise<ReviewSummary> {
  return repo.reviewCounts(db);
}

/** PUT /api/patients/{id}/restricted: sets the VIP/restricted marker, audited as UPDATE PATIENT with old and new value. */
export async function setPatientRestricted(
  scope: RequestScope<StaffActor>,
  patientId: number,
  restricted: boolean,
): Promise<{ id: number; restricted: boolean }> {
  return inAuditedTransaction(scope, async (ctx) => {
    const before = await repo.updateRestricted(ctx.tx, patientId, restricted);
    if (before === null) throw new AppError('PATIENT_NOT_FOUND', 'Patient not found');
    return ctx.audited(
      { id: patientId, restricted },
      {
        action: 'UPDATE',
        resourceType: 'PATIENT',
        resourceId: patientId,
        patientId,
        oldValues: { restricted: before },
        newValues: { restricted },
      },
    );
  });
}
