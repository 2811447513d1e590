// Volume alerts for the privacy review (docs/decisions/011-rate-limits-and-volume-alerts.md): after a search or a
// record-access confirmation, count the user's recent volume and raise an alert (a security event) over the
// threshold; reviewers list them with GET /api/privacy-reviews/alerts.
import {
  volumeAlertQuery,
  type VolumeAlertPage,
  type VolumeAlertQueryInput,
  type VolumeAlertType,
} from '../../../contracts/privacy-review';
import { auditActorOf } from '../../audit/audit-writer';
import type { Config } from '../../config';
import type { RequestMeta, StaffActor } from '../../context/actor';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import type { DbOrTx } from '../../db/client';
import { parseOr400 } from '../audit/parse';
import * as alerts from './alerts.repository';

type Thresholds = Config['alerts'];

const base = (actor: StaffActor, meta: RequestMeta) => {
  const who = auditActorOf(actor);
  return { userId: who.userId, userName: who.userName, facility: who.facility, ip: meta.ip, userAgent: meta.userAgent };
};

// Written out, not spread from base(): it is built on every search (issue 29: spreads into literals cost V8 new hidden classes).
const bulkSearchCheck = (limits: Thresholds, actor: StaffActor, meta: RequestMeta): alerts.BulkSearchCheck => ({
  userId: actor.userId,
  userName: auditActorOf(actor).userName,
  facility: actor.facility,
  ip: meta.ip,
  userAgent: meta.userAgent,
  threshold: limits.bulkSearchPatients,
  minutes: limits.bulkSearchMinutes,
  description: `Searches returned more than ${limits.bulkSearchPatients} distinct patients within ${limits.bulkSearchMinutes} minutes`,
  dayThreshold: limits.bulkSearchPatientsPerDay,
  dayDescription: `Searches returned more than ${limits.bulkSearchPatientsPerDay} distinct patients within 24 hours`,
});

/** After a search that found `ids`: BULK_SEARCH_ALERT when the user's searches found too many distinct patients recently. */
export const noteSearchVolume = (
  db: DbOrTx,
  limits: Thresholds,
  actor: StaffActor,
  meta: RequestMeta,
  ids: readonly number[],
): Promise<boolean> => alerts.checkSearchVolume(db, bulkSearchCheck(limits, actor, meta), ids);

/**
 * The same check inside a search's own statement (issue 11, decision 014): its values, for the statement to call
 * with the patients it found (privacy's bulkSearchCheckSlotted).
 */
export const searchVolumeCheckOf = (limits: Thresholds, actor: StaffActor, meta: RequestMeta): alerts.BulkSearchCheck =>
  bulkSearchCheck(limits, actor, meta);

/**
 * The values of GRANT_VOLUME_ALERT, which a record-access grant's own statement raises when the user made more than
 * `grantsPerHour` in the hour before `now` (alerts.repository's grantVolumeAlertSlotted).
 */
export const grantVolumeAlertOf = (limits: Pick<Thresholds, 'grantsPerHour'>, now: Date): alerts.GrantVolumeSlots => ({
  grantAlertThreshold: limits.grantsPerHour,
  grantAlertSince: new Date(now.getTime() - 60 * 60_000).toISOString(),
  grantAlertDescription: `More than ${limits.grantsPerHour} record-access confirmations within an hour`,
});

/** After a portal activation code is issued: PORTAL_CODE_VOLUME_ALERT when the user issued too many in the last hour. */
export async function notePortalCodeVolume(
  db: DbOrTx,
  limits: Thresholds,
  actor: StaffActor,
  meta: RequestMeta,
  now: Date = new Date(),
): Promise<boolean> {
  const { raised } = await alerts.raiseAlertOver(db, {
    ...base(actor, meta),
    type: 'PORTAL_CODE_VOLUME_ALERT',
    count: alerts.portalCodesInHourSql(actor.userId, now),
    threshold: limits.portalCodesPerHour,
    description: `More than ${limits.portalCodesPerHour} patient portal activation codes issued within an hour`,
    minutes: 60,
  });
  return raised;
}

/** The first record read of a portal session a desk seems to have opened with its own code (decision 031). */
export const raiseDeskActivationAlert = (
  db: DbOrTx,
  limits: Thresholds,
  issuerId: string,
  patientId: number,
  meta: RequestMeta,
): Promise<void> =>
  alerts.insertDeskActivationAlert(db, {
    userId: issuerId,
    patientId,
    minutes: limits.deskActivationMinutes,
    ip: meta.ip,
    userAgent: meta.userAgent,
    description: `Patient portal activated within ${limits.deskActivationMinutes} minutes of a code this user issued, from the same address or browser, then the record was read`,
  });

/** GET /api/privacy-reviews/alerts: newest first, audited as VIEW AUDIT_LOG. */
export async function readVolumeAlerts(scope: RequestScope<StaffActor>, query: VolumeAlertQueryInput): Promise<VolumeAlertPage> {
  const q = parseOr400(volumeAlertQuery, query, 'Invalid alert filters');
  const { rows, total } = await inAuditedTransaction(scope, async (ctx) => {
    const page = await alerts.selectAlerts(ctx.tx, q.pageSize, (q.page - 1) * q.pageSize);
    return ctx.audited(page, {
      action: 'VIEW',
      resourceType: 'AUDIT_LOG',
      newValues: { volumeAlerts: { page: q.page, returned: page.rows.length } },
    });
  });
  return {
    items: rows.map((r) => ({
      id: r.id,
      at: r.at,
      type: r.type as VolumeAlertType,
      user: r.userId === null ? null : { id: r.userId, name: r.userName },
      severity: r.severity,
      count: r.count,
      threshold: r.threshold,
      minutes: r.minutes,
      updatedAt: r.updatedAt,
      escalated: r.escalated,
      ...(r.patientJoin ? { patientJoin: r.patientJoin } : {}),
    })),
    page: q.page,
    pageSize: q.pageSize,
    total,
  };
}
