// The patient's own record for the portal in one statement (issue 29 item 2): the demographics, the lists the portal
// shows and the VIEW PATIENT audit row, one round trip as one named prepared statement. It was a transaction of
// five round trips (BEGIN, the patient, the lists, the audit row, COMMIT), each waiting its turn for a connection and
// a core under load: the portal's answer had the longest tail of the load benchmark.
import { sql } from 'drizzle-orm';
import type { RecordPatient } from '../../../contracts/access';
import { PORTAL_KINDS, type PortalKind, type RecordRows } from '../../../contracts/kinds';
import { auditAppendSlotted, auditSlotValues, type AuditSlots } from '../../audit/audit-in-statement';
import type { AuditEntry } from '../../audit/audit-writer';
import { hotStatement, slotValues, type Db } from '../../db/client';
import { PATIENT_JSON } from '../../db/patient-columns';
import { takeSuspectSessionSql } from '../portal/portal-credentials.repository';
import { listJson, presentLists } from './records.repository';

interface OwnRecordSlots extends AuditSlots {
  patientId: number;
  /** The reading session: a suspected desk activation's mark on it is taken off in the same statement. */
  suspectSid: string | null;
}

type OwnRecordRow = { patient: RecordPatient | null; audited: number; suspectIssuer: string | null } & Partial<{
  [K in PortalKind]: RecordRows[K][];
}>;

/** The audit row's new_values: the same as the transaction wrote, so the access history reads it as before. */
const AUDITED_AS = { via: 'patient-portal' };

const ownRecordStatement = hotStatement<OwnRecordSlots, OwnRecordRow>('nhr_own_record_audited', (slot) => {
  const lists = PORTAL_KINDS.map((kind) => sql`${listJson(kind, slot.patientId)} AS ${sql.identifier(kind)}`);
  return sql`WITH p AS (SELECT ${PATIENT_JSON} AS patient FROM patients AS p WHERE p.id = ${slot.patientId}::int),
             l AS (SELECT ${sql.join(lists, sql`, `)} FROM p),
             a AS (SELECT ${auditAppendSlotted(slot, AUDITED_AS, sql`${slot.patientId}::int`)} AS audit_id FROM p),
             s AS (${takeSuspectSessionSql(sql`${slot.patientId}::int`, sql`${slot.suspectSid}::text`, sql`EXISTS (SELECT 1 FROM p)`)})
        SELECT p.patient, (SELECT issuer FROM s) AS "suspectIssuer", ${sql.join(
          PORTAL_KINDS.map((k) => sql`l.${sql.identifier(k)}`),
          sql`, `,
        )}, (SELECT count(*)::int FROM a) AS audited
          FROM (SELECT 1) AS one LEFT JOIN p ON true LEFT JOIN l ON true`;
});

/**
 * The patient's demographics and the portal's lists (stored rows, as their reader sees them), audited as VIEW
 * PATIENT `{ via: 'patient-portal' }` by `audit`'s actor; null, with no audit row, when the patient does not exist.
 * `suspectIssuer`: the staff member whose desk code opened this session, when the session was marked as a suspected
 * desk activation (decision 031); the mark is taken off by the same statement, so the alert is raised once.
 */
export async function readOwnRecordAudited(
  db: Db,
  patientId: number,
  audit: Omit<AuditEntry, 'newValues' | 'patientId' | 'resourceId'>,
): Promise<{ patient: RecordPatient; lists: { [K in PortalKind]: RecordRows[K][] }; suspectIssuer: string | null } | null> {
  const [row] = await ownRecordStatement(
    db,
    slotValues({ patientId, suspectSid: audit.meta.sessionHash }, auditSlotValues({ ...audit, resourceId: patientId })),
  );
  if (!row?.patient) return null;
  if (row.audited !== 1) throw new Error('the record was read without its audit row');
  const { patient, audited: _a, suspectIssuer, ...lists } = row;
  return { patient, lists: presentLists(lists as { [K in PortalKind]: RecordRows[K][] }), suspectIssuer };
}
