// The patient portal (SPEC §2, §3, §7; DESIGN.md §4, §6): the signed-in patient's own record and who opened it.
// The patient id always comes from the session's actor, never from the request.
import type { AccessKind, AccessLogItem, AccessLogPage, AccessLogQuery, PortalRecord } from '../../../contracts/portal';
import type { PatientActor } from '../../context/actor';
import type { Db } from '../../db/client';
import { REVIEW_VERDICTS, type PortalAccessSummary, type ReviewVerdict } from '../../../contracts/privacy-review';
import { countUnreviewedEmergencyAccesses, selectAccessLogPage, type AccessRow } from './access-log.repository';
import { openOwnRecord, PatientRemoved } from '../access/patient-scope';
import { readOwnRecord } from '../records/records.service';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';

/** The answer of a portal read, or null when the signed-in patient was removed since sign-in (the route signs them out). */
async function unlessRemoved<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof PatientRemoved) return null;
    throw err;
  }
}

/**
 * The patient's record in the portal's field names (SPEC §3), audited as VIEW PATIENT by the patient; null when the
 * patient no longer exists. `suspectIssuer`: set when this session was a suspected desk activation (decision 031),
 * whose mark the read took off: the caller raises the alert.
 */
export async function loadPortalRecord(
  scope: RequestScope<PatientActor>,
): Promise<{ record: PortalRecord; suspectIssuer: string | null } | null> {
  const own = await unlessRemoved(readOwnRecord(scope));
  if (!own) return null;
  const { patient, lists, suspectIssuer } = own;
  return { record: { patient: { ...patient, ncNumber: patient.idNumber }, medicalRecords: lists }, suspectIssuer };
}

const isVerdict = (v: string | null): v is ReviewVerdict => (REVIEW_VERDICTS as readonly (string | null)[]).includes(v);

function kindOf(row: AccessRow): AccessKind {
  if (row.action === 'SEARCH') return 'SEARCH';
  if (row.flagType === 'PORTAL_ACTIVATION') return 'ACTIVATION_CODE';
  if (row.flagType === 'PORTAL_ACTIVATED' || row.flagType === 'PORTAL_RESET_CONFIRMED') return row.flagType;
  return row.flagType === 'BREAK_GLASS' ? 'BREAK_GLASS' : 'CONSENT';
}

/**
 * A short, stable reference of the staff account (issue 21 item 10): the same for every row of one account whatever
 * name it bore, so two people of one name, or one who took another's name, are told apart.
 */
export const staffReference = (userId: string): string => `S-${userId.replace(/-/g, '').slice(0, 8).toUpperCase()}`;

function toItem(row: AccessRow): AccessLogItem {
  const kind = kindOf(row);
  return {
    id: row.id,
    kind,
    at: row.timestamp.toISOString(),
    name: row.userName,
    staffId: staffReference(row.userId),
    // The role when it happened; rows written before roles were stored fall back to the user's current role.
    role: row.roleAtTheTime ?? (row.roleName && row.roleDisplayName ? { name: row.roleName, displayName: row.roleDisplayName } : null),
    facility: row.facility ?? row.userFacility,
    reason: kind === 'BREAK_GLASS' ? row.reason : null,
    review:
      kind === 'BREAK_GLASS' && isVerdict(row.reviewVerdict) && row.reviewedAt ? { verdict: row.reviewVerdict, at: row.reviewedAt } : null,
  };
}

/**
 * One page of who opened the patient's record, newest first; reading it is audited (VIEW AUDIT_LOG by the patient).
 * Null when the patient no longer exists.
 */
export async function loadAccessLog(scope: RequestScope<PatientActor>, query: AccessLogQuery): Promise<AccessLogPage | null> {
  const { page, pageSize } = query;
  const result = await unlessRemoved(
    inAuditedTransaction(scope, async (ctx) => {
      const found = await selectAccessLogPage(await openOwnRecord(ctx), { limit: pageSize, offset: (page - 1) * pageSize });
      return ctx.audited(found, {
        action: 'VIEW',
        resourceType: 'AUDIT_LOG',
        patientId: ctx.actor.patientId,
        newValues: { via: 'patient-portal', accessLog: { page, pageSize, returned: found.rows.length } },
      });
    }),
  );
  if (!result) return null;
  return { items: result.rows.map(toItem), page, pageSize, total: result.total };
}

/** The overview's counter: break-the-glass accesses to the patient's own record not yet reviewed. */
export async function loadAccessSummary(db: Db, actor: PatientActor): Promise<PortalAccessSummary> {
  return { unreviewedEmergencyAccesses: await countUnreviewedEmergencyAccesses(db, actor.patientId) };
}
