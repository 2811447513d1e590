// The delta read (issue 23 item 3, decision 041): the rows of one patient created, edited or marked entered in error
// since a cursor, in one statement with the grant check and its audit row, as a record open is (decision 015).
// A row's change_xid is the transaction that last wrote it (a trigger sets it). The cursor is the oldest transaction
// still running when the read was made (pg_snapshot_xmin): every change of an older transaction was committed and
// is in this answer, so the next read asks for change_xid >= cursor and misses nothing; a row it sends again is the
// same uuid and version, which a client keeps once.
import { sql, type SQL } from 'drizzle-orm';
import { RECORD_KINDS, type RecordKind } from '../../../contracts/kinds';
import { auditAppendSlotted, auditSlotValues, sqlJson, type AuditSlots } from '../../audit/audit-in-statement';
import type { AuditEntry } from '../../audit/audit-writer';
import { canonicalJson, toJsonValue } from '../../audit/canonical-json';
import { actorCheckSlotted, type ActorSlots } from '../../context/session';
import { hotStatement, slotValues, type Db, type Slots } from '../../db/client';
import { patientWithGrantSql } from '../../db/patient-columns';
import { serverKind } from './kinds';
import { jsonRow } from './records.repository';

export type ChangesRead =
  | { found: false }
  /** The cached actor was not confirmed (decision 028): nothing was read or written. */
  | { unconfirmed: true; found: false }
  | { found: true; granted: false; survivorId: number | null; survivorIdNumber: string | null }
  | { found: true; granted: true; cursorKnown: false }
  | { found: true; granted: true; cursorKnown: true; xmin: string; rows: Partial<Record<RecordKind, Record<string, unknown>[]>> };

/** The changed rows of one kind as a JSON array of stored rows (the presenter decides what is sent of each). */
function changedJson(kind: RecordKind, patientId: SQL, since: SQL | null): SQL {
  const table = serverKind(kind).table;
  return sql`(SELECT coalesce(json_agg(${jsonRow(kind)} ORDER BY ${table.id}), '[]'::json) FROM ${table}
    WHERE ${table.patientId} = ${patientId}${since === null ? sql`` : sql` AND ${table.changeXid} >= ${since}::xid8`})`;
}

/** What differs between two delta reads: who, which patient, when, the cursor, and the audit row's values. */
interface ChangesSlots extends AuditSlots {
  userId: string;
  patientId: number;
  now: string;
  /** The transaction id the cursor names (digits); unused by a read without a cursor. */
  since: string | null;
  /** The cursor as sent, as canonical JSON, for the audit row. */
  sinceJson: string;
}

type ChangesRow = {
  patient: unknown;
  granted: boolean | null;
  survivorId: number | null;
  survivorIdNumber: string | null;
  known: boolean;
  xmin: string;
  audited: number;
  actorOk: boolean;
} & Partial<Record<RecordKind, Record<string, unknown>[]>>;

/** The statement of one shape (with a cursor or not; confirming the cached actor or not), built once. */
function changesSql(slot: Slots<ChangesSlots>, withCursor: boolean, actor: SQL | null): SQL {
  const since = withCursor ? slot.since : null;
  const lists = RECORD_KINDS.map((kind) => sql`${changedJson(kind, slot.patientId, since)} AS ${sql.identifier(kind)}`);
  const returned = sqlJson(
    sql`(${sql.join(
      RECORD_KINDS.map((k) => sql`json_array_length(l.${sql.identifier(k)})`),
      sql` + `,
    )})`,
  );
  const newValues = { view: 'CHANGES', since: sqlJson(slot.sinceJson), returned };
  // A cursor names a transaction that has begun; one beyond the next transaction id was never given out.
  const known = since === null ? sql`true` : sql`${since}::xid8 <= pg_snapshot_xmax(pg_current_snapshot())`;
  const actorOk = actor ? sql`(SELECT ok FROM actor_ok)` : sql`true`;
  return sql`WITH ${actor ? sql`${actor},` : sql``}
             p AS (SELECT * FROM (${patientWithGrantSql(slot.userId, slot.patientId, slot.now)}) AS pg WHERE ${actorOk}),
             l AS (SELECT ${sql.join(lists, sql`, `)} FROM p WHERE p.granted AND ${known}),
             a AS (SELECT ${auditAppendSlotted(slot, newValues, slot.patientId)} AS audit_id FROM l)
        SELECT p.patient, p.granted, p."survivorId", p."survivorIdNumber", ${known} AS known, pg_snapshot_xmin(pg_current_snapshot())::text AS xmin,
               ${sql.join(
                 RECORD_KINDS.map((k) => sql`l.${sql.identifier(k)}`),
                 sql`, `,
               )}, (SELECT count(*)::int FROM a) AS audited, ${actorOk} AS "actorOk"
          FROM (SELECT 1) AS one LEFT JOIN p ON true LEFT JOIN l ON true`;
}

const STATEMENTS = {
  all: hotStatement<ChangesSlots, ChangesRow>('nhr_record_changes_audited', (slot) => changesSql(slot, false, null)),
  since: hotStatement<ChangesSlots, ChangesRow>('nhr_record_changes_audited_since', (slot) => changesSql(slot, true, null)),
  allActor: hotStatement<ChangesSlots & ActorSlots, ChangesRow>('nhr_record_changes_audited_actor', (slot) =>
    changesSql(slot, false, actorCheckSlotted(slot)),
  ),
  sinceActor: hotStatement<ChangesSlots & ActorSlots, ChangesRow>('nhr_record_changes_audited_since_actor', (slot) =>
    changesSql(slot, true, actorCheckSlotted(slot)),
  ),
};

/**
 * The delta read in one statement, audited as VIEW PATIENT `{ view: 'CHANGES', since: cursor, returned }` (`audit`:
 * who and from where). `since`: the transaction id the cursor names (digits), or null for every row. `actor`: the
 * cached actor's confirmation (context/session's actorSlotsOf, decision 028), as a record open takes it.
 */
export async function readChangesAudited(
  db: Db,
  userId: string,
  patientId: number,
  cursor: { raw: string; since: string } | null,
  now: Date,
  audit: Omit<AuditEntry, 'newValues' | 'patientId'>,
  actor?: ActorSlots,
): Promise<ChangesRead> {
  const values = [
    {
      userId,
      patientId,
      now: now.toISOString(),
      since: cursor?.since ?? null,
      sinceJson: canonicalJson(toJsonValue(cursor?.raw ?? null)),
    },
    auditSlotValues(audit),
  ] as const;
  const [row] = actor
    ? await (cursor ? STATEMENTS.sinceActor : STATEMENTS.allActor)(db, slotValues(...values, actor))
    : await (cursor ? STATEMENTS.since : STATEMENTS.all)(db, slotValues(...values));
  if (row && !row.actorOk) return { unconfirmed: true, found: false };
  if (!row?.patient) return { found: false };
  if (!row.granted) return { found: true, granted: false, survivorId: row.survivorId, survivorIdNumber: row.survivorIdNumber };
  if (!row.known) return { found: true, granted: true, cursorKnown: false };
  if (row.audited !== 1) throw new Error('the changes were read without their audit row');
  const { patient: _p, granted: _g, survivorId: _s, survivorIdNumber: _n, known: _k, xmin, audited: _a, actorOk: _o, ...rows } = row;
  return { found: true, granted: true, cursorKnown: true, xmin, rows };
}
