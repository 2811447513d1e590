// Opening a record in one statement (issue 11, docs/decisions/015): the grant check, the demographics, the five
// lists and vital signs, and the VIEW PATIENT audit row naming how many rows of each were returned, in one round
// trip as one named prepared statement. Nothing of the record and no audit row without a live grant.
import { sql, type SQL } from 'drizzle-orm';
import { RECORD_KINDS, type RecordLists } from '../../../contracts/kinds';
import { type RecordSummary } from '../../../contracts/record-api';
import type { RecordPatient } from '../../../contracts/access';
import { auditAppendSql, sqlJson, type StatementAuditEntry } from '../../audit/audit-in-statement';
import { preparedRows, type Db } from '../../db/client';
import { patientWithGrantSql } from '../../db/patient-columns';
import { listJson, presentLists } from './records.repository';

export type SummaryRead =
  | { found: false }
  | { found: true; granted: false }
  | { found: true; granted: true; summary: RecordSummary }
  /** The cached actor was not confirmed (decision 028): nothing was read or written. */
  | { unconfirmed: true; found: false };

/** The audit row of an opened record, without `returned` (the statement counts each list). */
export type SummaryAudit = Omit<StatementAuditEntry, 'newValues'> & { newValues: Record<string, unknown> };

/**
 * `actor`: the cached actor's confirmation (context/session's actorCheckSql, decision 028); when given, nothing of the
 * record is read and no row written unless the actor is confirmed.
 */
export async function readSummaryAudited(
  db: Db,
  userId: string,
  patientId: number,
  now: Date,
  audit: SummaryAudit,
  actor?: SQL,
): Promise<SummaryRead> {
  const returned = Object.fromEntries(RECORD_KINDS.map((kind) => [kind, sqlJson(sql`json_array_length(l.${sql.identifier(kind)})`)]));
  const entry: StatementAuditEntry = { ...audit, newValues: { ...(audit.newValues as Record<string, never>), returned } };
  const lists = RECORD_KINDS.map((kind) => sql`${listJson(kind, patientId)} AS ${sql.identifier(kind)}`);
  const [row] = await preparedRows<
    { patient: RecordPatient | null; granted: boolean | null; audited: number; actorOk: boolean } & Partial<RecordLists>
  >(
    db,
    `nhr_record_summary_audited${actor ? '_actor' : ''}`,
    sql`WITH ${actor ? sql`${actor},` : sql``}
             p AS (SELECT * FROM (${patientWithGrantSql(userId, patientId, now)}) AS pg WHERE ${actor ? sql`(SELECT ok FROM actor_ok)` : sql`true`}),
             l AS (SELECT ${sql.join(lists, sql`, `)} FROM p WHERE p.granted),
             a AS (SELECT ${auditAppendSql(entry)} AS audit_id FROM l)
        SELECT p.patient, p.granted, ${sql.join(
          RECORD_KINDS.map((k) => sql`l.${sql.identifier(k)}`),
          sql`, `,
        )},
               (SELECT count(*)::int FROM a) AS audited, ${actor ? sql`(SELECT ok FROM actor_ok)` : sql`true`} AS "actorOk"
          FROM (SELECT 1) AS one LEFT JOIN p ON true LEFT JOIN l ON true`,
  );
  if (row && !row.actorOk) return { unconfirmed: true, found: false };
  if (!row?.patient) return { found: false };
  if (!row.granted) return { found: true, granted: false };
  if (row.audited !== 1) throw new Error('the record was read without its audit row');
  const { patient, granted: _g, audited: _a, ...rest } = row;
  return { found: true, granted: true, summary: { patient, ...presentLists(rest as RecordLists) } };
}
