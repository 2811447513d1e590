// Opening a record in one statement (issue 11, docs/decisions/015): the grant check, the demographics, the five
// lists and vital signs, and the VIEW PATIENT audit row naming how many rows of each were returned, in one round
// trip as one named prepared statement. Nothing of the record and no audit row without a live grant.
import { sql, type SQL } from 'drizzle-orm';
import { RECORD_KINDS, type RecordLists } from '../../../contracts/kinds';
import { type RecordSummary } from '../../../contracts/record-api';
import type { RecordPatient } from '../../../contracts/access';
import { auditAppendSlotted, auditSlotValues, sqlJson, type AuditSlots } from '../../audit/audit-in-statement';
import type { AuditEntry } from '../../audit/audit-writer';
import { actorCheckSlotted, type ActorSlots } from '../../context/session';
import { hotStatement, slotValues, type Db, type Slots } from '../../db/client';
import { patientWithGrantSql } from '../../db/patient-columns';
import { listJson, presentLists } from './records.repository';

export type SummaryRead =
  | { found: false }
  | { found: true; granted: false; survivorId: number | null; survivorIdNumber: string | null }
  | { found: true; granted: true; summary: RecordSummary }
  /** The cached actor was not confirmed (decision 028): nothing was read or written. */
  | { unconfirmed: true; found: false };

/** What differs between two record opens: who, which patient, when, and the audit row's values. */
interface SummarySlots extends AuditSlots {
  userId: string;
  patientId: number;
  now: string;
}

type SummaryRow = {
  patient: RecordPatient | null;
  granted: boolean | null;
  survivorId: number | null;
  survivorIdNumber: string | null;
  audited: number;
  actorOk: boolean;
} & Partial<RecordLists>;

/** The statement, built once per shape (db/client hotStatement): with the cached actor's confirmation or without. */
function summarySql(slot: Slots<SummarySlots>, actor: SQL | null): SQL {
  const returned = Object.fromEntries(RECORD_KINDS.map((kind) => [kind, sqlJson(sql`json_array_length(l.${sql.identifier(kind)})`)]));
  const lists = RECORD_KINDS.map((kind) => sql`${listJson(kind, slot.patientId)} AS ${sql.identifier(kind)}`);
  const actorOk = actor ? sql`(SELECT ok FROM actor_ok)` : sql`true`;
  return sql`WITH ${actor ? sql`${actor},` : sql``}
             p AS (SELECT * FROM (${patientWithGrantSql(slot.userId, slot.patientId, slot.now)}) AS pg WHERE ${actorOk}),
             l AS (SELECT ${sql.join(lists, sql`, `)} FROM p WHERE p.granted),
             a AS (SELECT ${auditAppendSlotted(slot, { view: 'RECORD', returned }, slot.patientId)} AS audit_id FROM l)
        SELECT p.patient, p.granted, p."survivorId", p."survivorIdNumber", ${sql.join(
          RECORD_KINDS.map((k) => sql`l.${sql.identifier(k)}`),
          sql`, `,
        )},
               (SELECT count(*)::int FROM a) AS audited, ${actorOk} AS "actorOk"
          FROM (SELECT 1) AS one LEFT JOIN p ON true LEFT JOIN l ON true`;
}

const summaryStatement = hotStatement<SummarySlots, SummaryRow>('nhr_record_summary_audited', (slot) => summarySql(slot, null));
const summaryActorStatement = hotStatement<SummarySlots & ActorSlots, SummaryRow>('nhr_record_summary_audited_actor', (slot) =>
  summarySql(slot, actorCheckSlotted(slot)),
);

/**
 * The record open in one statement, audited as VIEW PATIENT `{ view: 'RECORD', returned }` (`audit`: who and from
 * where). `actor`: the cached actor's confirmation (context/session's actorSlotsOf, decision 028); when given,
 * nothing of the record is read and no row written unless the actor is confirmed.
 */
export async function readSummaryAudited(
  db: Db,
  userId: string,
  patientId: number,
  now: Date,
  audit: Omit<AuditEntry, 'newValues' | 'patientId'>,
  actor?: ActorSlots,
): Promise<SummaryRead> {
  const values = [{ userId, patientId, now: now.toISOString() }, auditSlotValues(audit)] as const;
  const [row] = actor ? await summaryActorStatement(db, slotValues(...values, actor)) : await summaryStatement(db, slotValues(...values));
  if (row && !row.actorOk) return { unconfirmed: true, found: false };
  if (!row?.patient) return { found: false };
  if (!row.granted) return { found: true, granted: false, survivorId: row.survivorId, survivorIdNumber: row.survivorIdNumber };
  if (row.audited !== 1) throw new Error('the record was read without its audit row');
  const { patient, granted: _g, survivorId: _s, survivorIdNumber: _n, audited: _a, actorOk: _o, ...rest } = row;
  return { found: true, granted: true, summary: { patient, ...presentLists(rest as RecordLists) } };
}
