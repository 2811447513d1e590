// The patient portal (SPEC §2, §3, §7; DESIGN.md §4, §6): the signed-in patient's own record and who opened it.
// The patient id always comes from the session's actor, never from the request.
import type { AccessKind, AccessLogItem, AccessLogPage, AccessLogQuery, PortalRecord } from '../../../contracts/portal';
import { auditActorOf } from '../../audit/audit-writer';
import type { PatientActor, RequestMeta } from '../../context/actor';
import type { Db } from '../../db/client';
import { REVIEW_VERDICTS, type PortalAccessSummary, type ReviewVerdict } from '../../../contracts/privacy-review';
import { countUnreviewedEmergencyAccesses, readAccessLog, type AccessRow } from './access-log.repository';
import { readPortalRecord } from './portal.repository';

/** The patient's record, audited as VIEW PATIENT by the patient; null when the patient no longer exists. */
export async function loadPortalRecord(db: Db, actor: PatientActor, meta: RequestMeta): Promise<PortalRecord | null> {
  const rows = await readPortalRecord(db, actor.patientId, {
    actor: auditActorOf(actor),
    meta,
    action: 'VIEW',
    resourceType: 'PATIENT',
    resourceId: actor.patientId,
    patientId: actor.patientId,
    newValues: { via: 'patient-portal' },
  });
  if (!rows) return null;
  const { patient, ...medicalRecords } = rows;
  return { patient: { ...patient, ncNumber: patient.idNumber }, medicalRecords };
}

const isVerdict = (v: string | null): v is ReviewVerdict => (REVIEW_VERDICTS as readonly (string | null)[]).includes(v);

function kindOf(row: AccessRow): AccessKind {
  if (row.action === 'SEARCH') return 'SEARCH';
  if (row.flagType === 'PORTAL_ACTIVATION') return 'ACTIVATION_CODE';
  return row.flagType === 'BREAK_GLASS' ? 'BREAK_GLASS' : 'CONSENT';
}

function toItem(row: AccessRow): AccessLogItem {
  const kind = kindOf(row);
  return {
    id: row.id,
    kind,
    at: row.timestamp.toISOString(),
    name: row.userName,
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
export async function loadAccessLog(db: Db, actor: PatientActor, meta: RequestMeta, query: AccessLogQuery): Promise<AccessLogPage | null> {
  const { page, pageSize } = query;
  const result = await readAccessLog(db, actor.patientId, { limit: pageSize, offset: (page - 1) * pageSize }, (returned) => ({
    actor: auditActorOf(actor),
    meta,
    action: 'VIEW',
    resourceType: 'AUDIT_LOG',
    patientId: actor.patientId,
    newValues: { via: 'patient-portal', accessLog: { page, pageSize, returned } },
  }));
  if (!result) return null;
  return { items: result.rows.map(toItem), page, pageSize, total: result.total };
}

/** The overview's counter: break-the-glass accesses to the patient's own record not yet reviewed. */
export async function loadAccessSummary(db: Db, actor: PatientActor): Promise<PortalAccessSummary> {
  return { unreviewedEmergencyAccesses: await countUnreviewedEmergencyAccesses(db, actor.patientId) };
}
