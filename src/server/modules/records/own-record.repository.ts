// The patient's own record for the portal in one statement (issue 29 item 2): the demographics, the lists the portal
// shows and the VIEW PATIENT audit row, one round trip as one named prepared statement. It was a transaction of
// five round trips (BEGIN, the patient, the lists, the audit row, COMMIT), each waiting its turn for a connection and
// a core under load: the portal's answer had the longest tail of the load benchmark.
import { sql, type SQL } from 'drizzle-orm';
import type { RecordPatient } from '../../../contracts/access';
import { PORTAL_KINDS, type PortalKind, type RecordRows } from '../../../contracts/kinds';
import { auditAppendSlotted, auditSlotValues, type AuditSlots } from '../../audit/audit-in-statement';
import type { AuditEntry } from '../../audit/audit-writer';
import { actorCheckSlotted, type ActorSlots } from '../../context/session';
import { hotStatement, slotValues, type Db, type Slots } from '../../db/client';
import { PATIENT_JSON } from '../../db/patient-columns';
import { takeSuspectSessionSql } from '../portal/portal-credentials.repository';
import { listJson, presentLists } from './records.repository';

interface OwnRecordSlots extends AuditSlots {
  patientId: number;
  /** The reading session: a suspected desk activation's mark on it is taken off in the same statement. */
  suspectSid: string | null;
}

type OwnRecordRow = { patient: RecordPatient | null; audited: number; suspectIssuer: string | null; actorOk: boolean } & Partial<{
  [K in PortalKind]: RecordRows[K][];
}>;

/** The audit row's new_values: the same as the transaction wrote, so the access history reads it as before. */
const AUDITED_AS = { via: 'patient-portal' };

/**
 * The statement, built once per shape (db/client hotStatement): with the cached patient session's confirmation
 * (decision 028: the session still live and the same, in the same snapshot, so the read is one round trip) or without.
 */
function ownRecordSql(slot: Slots<OwnRecordSlots>, actor: SQL | null): SQL {
  const lists = PORTAL_KINDS.map((kind) => sql`${listJson(kind, slot.patientId)} AS ${sql.identifier(kind)}`);
  const actorOk = actor ? sql`(SELECT ok FROM actor_ok)` : sql`true`;
  return sql`WITH ${actor ? sql`${actor},` : sql``}
             p AS (SELECT ${PATIENT_JSON} AS patient FROM patients AS p WHERE p.id = ${slot.patientId}::int AND ${actorOk}),
             l AS (SELECT ${sql.join(lists, sql`, `)} FROM p),
             a AS (SELECT ${auditAppendSlotted(slot, AUDITED_AS, sql`${slot.patientId}::int`)} AS audit_id FROM p),
             s AS (${takeSuspectSessionSql(sql`${slot.patientId}::int`, sql`${slot.suspectSid}::text`, sql`EXISTS (SELECT 1 FROM p)`)})
        SELECT p.patient, (SELECT issuer FROM s) AS "suspectIssuer", ${sql.join(
          PORTAL_KINDS.map((k) => sql`l.${sql.identifier(k)}`),
          sql`, `,
        )}, (SELECT count(*)::int FROM a) AS audited, ${actorOk} AS "actorOk"
          FROM (SELECT 1) AS one LEFT JOIN p ON true LEFT JOIN l ON true`;
}

const ownRecordStatement = hotStatement<OwnRecordSlots, OwnRecordRow>('nhr_own_record_audited', (slot) => ownRecordSql(slot, null));
const ownRecordActorStatement = hotStatement<OwnRecordSlots & ActorSlots, OwnRecordRow>('nhr_own_record_audited_actor', (slot) =>
  ownRecordSql(slot, actorCheckSlotted(slot)),
);

/** What the portal's read found. */
export type OwnRecordRead =
  /** The cached patient session was not confirmed (decision 028): nothing was read or written. */
  | { unconfirmed: true }
  /** The patient does not exist: no audit row. */
  | { found: false }
  | { found: true; patient: RecordPatient; lists: { [K in PortalKind]: RecordRows[K][] }; suspectIssuer: string | null };

/**
 * The patient's demographics and the portal's lists (stored rows, as their reader sees them), audited as VIEW
 * PATIENT `{ via: 'patient-portal' }` by `audit`'s actor. `suspectIssuer`: the staff member whose desk code opened
 * this session, when the session was marked as a suspected desk activation (decision 031); the mark is taken off by
 * the same statement, so the alert is raised once. `actor`: the cached session's confirmation (context/session's
 * actorSlotsOf); when given, nothing is read and no row written unless the session is confirmed.
 */
export async function readOwnRecordAudited(
  db: Db,
  patientId: number,
  audit: Omit<AuditEntry, 'newValues' | 'patientId' | 'resourceId'>,
  actor?: ActorSlots,
): Promise<OwnRecordRead> {
  const values = [{ patientId, suspectSid: audit.meta.sessionHash }, auditSlotValues({ ...audit, resourceId: patientId })] as const;
  const [row] = actor
    ? await ownRecordActorStatement(db, slotValues(...values, actor))
    : await ownRecordStatement(db, slotValues(...values));
  if (row && !row.actorOk) return { unconfirmed: true };
  if (!row?.patient) return { found: false };
  if (row.audited !== 1) throw new Error('the record was read without its audit row');
  const { patient, audited: _a, suspectIssuer, actorOk: _o, ...lists } = row;
  return { found: true, patient, lists: presentLists(lists as { [K in PortalKind]: RecordRows[K][] }), suspectIssuer };
}
