// The two patients' rows a join changes (decision 048): locked in id order, the demographic values the reviewer
// kept, the replaced_by link, their clinical rows counted, and version rows following their items on undo.
import { getTableName, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { SERVER_KINDS } from '../records/kinds';
import { rows } from '../patients/search.repository';

/** The demographic fields a reviewer picks, with their columns (JOIN_KEEP_FIELDS but `portal`). */
export const DEMOGRAPHIC_COLUMNS = {
  firstName: 'first_name',
  lastName: 'last_name',
  dateOfBirth: 'date_of_birth',
  sex: 'sex',
  contactNumber: 'contact_number',
  address: 'address',
  nextOfKin: 'next_of_kin',
  nextOfKinContact: 'next_of_kin_contact',
  restricted: 'restricted',
} as const;
export type DemographicField = keyof typeof DEMOGRAPHIC_COLUMNS;

export type PatientValues = { id: number; replacedBy: number | null } & Record<DemographicField, string | null>;

const VALUES = sql.join(
  Object.entries(DEMOGRAPHIC_COLUMNS).map(([field, column]) => sql`${sql.identifier(column)}::text AS ${sql.identifier(field)}`),
  sql`, `,
);

/**
 * One patient's row, locked FOR NO KEY UPDATE until commit: an add for the patient (records.repository insertItem,
 * FOR SHARE) waits for the join and then sees it; the foreign-key checks of other writes (FOR KEY SHARE: an edit's new
 * version row) do not wait, so an edit that holds a row the join is about to move finishes first (no deadlock).
 */
export async function lockPatient(db: DbOrTx, patientId: number): Promise<PatientValues | null> {
  const [found] = await rows<PatientValues>(
    db,
    sql`SELECT id, replaced_by AS "replacedBy", ${VALUES} FROM patients WHERE id = ${patientId} FOR NO KEY UPDATE`,
  );
  return found ?? null;
}

/** Both patients locked in id order (two joins of overlapping pairs cannot deadlock), as [first, second] asked. */
export async function lockBoth(db: DbOrTx, a: number, b: number): Promise<[PatientValues, PatientValues] | null> {
  const [low, high] = a < b ? [a, b] : [b, a];
  const lowRow = await lockPatient(db, low);
  const highRow = await lockPatient(db, high);
  if (!lowRow || !highRow) return null;
  return a < b ? [lowRow, highRow] : [highRow, lowRow];
}

/** Sets one demographic field of the survivor (only where it still holds `expected`, for undo); whether it changed. */
export async function setDemographic(
  db: DbOrTx,
  patientId: number,
  field: DemographicField,
  value: string | null,
  expected: string | null,
): Promise<boolean> {
  const column = sql.identifier(DEMOGRAPHIC_COLUMNS[field]);
  const cast = field === 'dateOfBirth' ? sql`::date` : field === 'restricted' ? sql`::boolean` : sql``;
  const changed = await rows<{ id: number }>(
    db,
    sql`UPDATE patients SET ${column} = ${value}${cast} WHERE id = ${patientId} AND ${column}::text IS NOT DISTINCT FROM ${expected}
        RETURNING id`,
  );
  return changed.length > 0;
}

export async function setReplacedBy(db: DbOrTx, mergedId: number, survivorId: number | null, at: Date | null): Promise<void> {
  await db.execute(sql`UPDATE patients SET replaced_by = ${survivorId}, replaced_at = ${at} WHERE id = ${mergedId}`);
}

/** The clinical lists' tables, one per record kind (modules/records/kinds). */
export const CLINICAL_TABLES: readonly string[] = Object.values(SERVER_KINDS).map((k) => getTableName(k.table));

/** Clinical rows (every record kind, entered-in-error ones left out) of the given patients. */
export async function countClinicalRows(db: DbOrTx, patientIds: readonly number[]): Promise<number> {
  const ids = sql`ANY(${`{${patientIds.join(',')}}`}::int[])`;
  const counts = CLINICAL_TABLES.map(
    (table) => sql`(SELECT count(*) FROM ${sql.identifier(table)} WHERE patient_id = ${ids} AND entered_in_error_at IS NULL)`,
  );
  const [found] = await rows<{ n: number }>(db, sql`SELECT (${sql.join(counts, sql` + `)})::int AS n`);
  return found?.n ?? 0;
}

/**
 * After undo: each version row (record_versions) of an item of either patient follows its item, including versions
 * written on the survivor since the join (an edit of a row that has now gone back to the merged record).
 */
export async function versionsFollowItems(db: DbOrTx, patientIds: readonly [number, number]): Promise<void> {
  const [a, b] = patientIds;
  for (const [kind, k] of Object.entries(SERVER_KINDS)) {
    const table = sql.identifier(getTableName(k.table));
    await db.execute(sql`UPDATE record_versions AS v SET patient_id = t.patient_id FROM ${table} AS t
                          WHERE v.kind = ${kind} AND v.item_id = t.id AND v.patient_id IN (${a}, ${b})
                            AND t.patient_id IN (${a}, ${b}) AND v.patient_id <> t.patient_id`);
  }
}
