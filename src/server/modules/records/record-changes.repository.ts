// The delta read (issue 23 item 3, decision 041): the rows of one patient created, edited or marked entered in error
// since a cursor, in one statement with the grant check and its audit row, as a record open is (decision 015).
// A row's change_xid is the transaction that last wrote it (a trigger sets it). The cursor is the oldest transaction
// still running when the read was made (pg_snapshot_xmin): every change of an older transaction was committed and
// is in this answer, so the next read asks for change_xid >= cursor and misses nothing; a row it sends again is the
// same uuid and version, which a client keeps once.
import { sql, type SQL } from 'drizzle-orm';
import { RECORD_KINDS, type RecordKind } from '../../../contracts/kinds';
import { auditAppendSql, sqlJson, type StatementAuditEntry } from '../../audit/audit-in-statement';
import { preparedRows, type Db } from '../../db/client';
import { patientWithGrantSql } from '../../db/patient-columns';
import { serverKind } from './kinds';
import { jsonRow } from './records.repository';

export type ChangesRead =
  | { found: false }
  | { found: true; granted: false }
  | { found: true; granted: true; cursorKnown: false }
  | { found: true; granted: true; cursorKnown: true; xmin: string; rows: Partial<Record<RecordKind, Record<string, unknown>[]>> };

/** The changed rows of one kind as a JSON array of stored rows (the presenter decides what is sent of each). */
function changedJson(kind: RecordKind, patientId: number, since: string | null): SQL {
  const table = serverKind(kind).table;
  return sql`(SELECT coalesce(json_agg(${jsonRow(kind)} ORDER BY ${table.id}), '[]'::json) FROM ${table}
    WHERE ${table.patientId} = ${patientId}${since === null ? sql`` : sql` AND ${table.changeXid} >= ${since}::xid8`})`;
}

/** `since`: the transaction id a cursor names (digits), or null for every row. */
export async function readChangesAudited(
  db: Db,
  userId: string,
  patientId: number,
  since: string | null,
  now: Date,
  audit: Omit<StatementAuditEntry, 'newValues'> & { newValues: Record<string, unknown> },
): Promise<ChangesRead> {
  const lists = RECORD_KINDS.map((kind) => sql`${changedJson(kind, patientId, since)} AS ${sql.identifier(kind)}`);
  const returned = sqlJson(
    sql`(${sql.join(
      RECORD_KINDS.map((k) => sql`json_array_length(l.${sql.identifier(k)})`),
      sql` + `,
    )})`,
  );
  const entry: StatementAuditEntry = { ...audit, newValues: { ...(audit.newValues as Record<string, never>), returned } };
  // A cursor names a transaction that has begun; one beyond the next transaction id was never given out.
  const known = since === null ? sql`true` : sql`${since}::xid8 <= pg_snapshot_xmax(pg_current_snapshot())`;
  const [row] = await preparedRows<
    { patient: unknown; granted: boolean | null; known: boolean; xmin: string; audited: number } & Partial<
      Record<RecordKind, Record<string, unknown>[]>
    >
  >(
    db,
    `nhr_record_changes_audited${since === null ? '' : '_since'}`,
    sql`WITH p AS (SELECT * FROM (${patientWithGrantSql(userId, patientId, now)}) AS pg),
             l AS (SELECT ${sql.join(lists, sql`, `)} FROM p WHERE p.granted AND ${known}),
             a AS (SELECT ${auditAppendSql(entry)} AS audit_id FROM l)
        SELECT p.patient, p.granted, ${known} AS known, pg_snapshot_xmin(pg_current_snapshot())::text AS xmin,
               ${sql.join(
                 RECORD_KINDS.map((k) => sql`l.${sql.identifier(k)}`),
                 sql`, `,
               )}, (SELECT count(*)::int FROM a) AS audited
          FROM (SELECT 1) AS one LEFT JOIN p ON true LEFT JOIN l ON true`,
  );
  if (!row?.patient) return { found: false };
  if (!row.granted) return { found: true, granted: false };
  if (!row.known) return { found: true, granted: true, cursorKnown: false };
  if (row.audited !== 1) throw new Error('the changes were read without their audit row');
  const { patient: _p, granted: _g, known: _k, xmin, audited: _a, ...rows } = row;
  return { found: true, granted: true, cursorKnown: true, xmin, rows };
}
