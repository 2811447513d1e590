// The ledger's statements (decision 048): set-based, one statement per table and step. Re-pointing a table's rows
// writes each row's primary key (as it is after the move) into patient_join_rows in the same statement; removing a row
// the survivor already has the like of writes the whole row. Undo replays them backwards.
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../patients/search.repository';
import type { PatientReference } from './patient-references';

const id = (name: string) => sql.identifier(name);

/** jsonb_build_object of the row's primary key, read from `alias`. */
function keyJson(ref: PatientReference, alias: string): SQL {
  const parts = (ref.key ?? []).map((k) => sql`${sql.raw(`'${k}'`)}, ${sql.identifier(alias)}.${id(k)}`);
  return sql`jsonb_build_object(${sql.join(parts, sql`, `)})`;
}

const count = async (db: DbOrTx, statement: SQL): Promise<number> => (await rows<{ n: number }>(db, statement))[0]?.n ?? 0;

/** Re-points every row of `ref` from `from` to `to`, recording each in the ledger; the number moved. */
export async function moveRows(db: DbOrTx, joinId: number, ref: PatientReference, from: number, to: number): Promise<number> {
  return count(
    db,
    sql`WITH moved AS (UPDATE ${id(ref.table)} SET ${id(ref.column)} = ${to} WHERE ${id(ref.column)} = ${from} RETURNING *),
         ledger AS (INSERT INTO patient_join_rows (join_id, table_name, column_name, action, row_key)
                    SELECT ${joinId}, ${ref.table}, ${ref.column}, 'moved', ${keyJson(ref, 'moved')} FROM moved RETURNING 1)
    SELECT count(*)::int AS n FROM ledger`,
  );
}

/**
 * Of a keyed table (its primary key includes the patient): removes the rows of `loser` whose like (the same other
 * key columns) `winner` already has, each recorded with its whole row; the number removed.
 */
export async function removeLikeRows(db: DbOrTx, joinId: number, ref: PatientReference, loser: number, winner: number): Promise<number> {
  const same = (ref.key ?? []).filter((k) => k !== ref.column).map((k) => sql` AND w.${id(k)} = l.${id(k)}`);
  return count(
    db,
    sql`WITH removed AS (DELETE FROM ${id(ref.table)} AS l
                          WHERE l.${id(ref.column)} = ${loser}
                            AND EXISTS (SELECT 1 FROM ${id(ref.table)} AS w WHERE w.${id(ref.column)} = ${winner}${sql.join(same, sql``)})
                         RETURNING l.*),
         ledger AS (INSERT INTO patient_join_rows (join_id, table_name, column_name, action, row_key, row_data)
                    SELECT ${joinId}, ${ref.table}, ${ref.column}, 'removed', ${keyJson(ref, 'removed')}, to_jsonb(removed) FROM removed
                    RETURNING 1)
    SELECT count(*)::int AS n FROM ledger`,
  );
}

/** Removes the merged-away patient's open duplicate pairs (decided pairs stay as history), each with its whole row. */
export async function removeOpenPairs(db: DbOrTx, joinId: number, merged: number): Promise<number> {
  return count(
    db,
    sql`WITH removed AS (DELETE FROM duplicate_pairs WHERE status = 'open' AND (patient_a = ${merged} OR patient_b = ${merged})
                         RETURNING *),
         ledger AS (INSERT INTO patient_join_rows (join_id, table_name, column_name, action, row_key, row_data)
                    SELECT ${joinId}, 'duplicate_pairs', CASE WHEN patient_a = ${merged} THEN 'patient_a' ELSE 'patient_b' END,
                           'removed', jsonb_build_object('id', id), to_jsonb(removed) FROM removed RETURNING 1)
    SELECT count(*)::int AS n FROM ledger`,
  );
}

/** Undo of moveRows: the ledger's rows of `ref` that still point to `survivor` go back to `merged`; the number. */
export async function moveRowsBack(db: DbOrTx, joinId: number, ref: PatientReference, survivor: number, merged: number): Promise<number> {
  const match = (ref.key ?? []).map((k) => sql`t.${id(k)} = k.${id(k)}`);
  return count(
    db,
    sql`WITH back AS (
          UPDATE ${id(ref.table)} AS t SET ${id(ref.column)} = ${merged}
            FROM (SELECT (jsonb_populate_record(NULL::${id(ref.table)}, j.row_key)).*
                    FROM patient_join_rows AS j
                   WHERE j.join_id = ${joinId} AND j.table_name = ${ref.table} AND j.column_name = ${ref.column} AND j.action = 'moved') AS k
           WHERE ${sql.join(match, sql` AND `)} AND t.${id(ref.column)} = ${survivor}
          RETURNING 1)
    SELECT count(*)::int AS n FROM back`,
  );
}

/** Undo of a removal: the removed rows of `table` put back as they were (a row that is back already is left). */
export async function reinsertRemoved(db: DbOrTx, joinId: number, table: string): Promise<number> {
  return count(
    db,
    sql`WITH back AS (
          INSERT INTO ${id(table)}
          SELECT (jsonb_populate_record(NULL::${id(table)}, j.row_data)).*
            FROM patient_join_rows AS j
           WHERE j.join_id = ${joinId} AND j.table_name = ${table} AND j.action = 'removed'
          ON CONFLICT DO NOTHING
          RETURNING 1)
    SELECT count(*)::int AS n FROM back`,
  );
}

/** Deletes a derived table's rows of one patient (they are recomputed). */
export async function removeDerived(db: DbOrTx, ref: PatientReference, patientId: number): Promise<void> {
  await db.execute(sql`DELETE FROM ${id(ref.table)} WHERE ${id(ref.column)} = ${patientId}`);
}
