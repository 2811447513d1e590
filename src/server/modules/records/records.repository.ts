// The record's lists, one table per kind (modules/records/kinds). Every read and change of a patient's items takes
// a PatientScope: the data context of a transaction in which the access module checked this user's live grant for
// that patient (docs/decisions/009-data-context.md). Nothing here knows a kind: columns are mapped by their types.
import { and, desc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { kindContract, RECORD_KINDS, type RecordKind, type RecordLists, type RecordRows } from '../../../contracts/kinds';
import type { Actor } from '../../context/actor';
import type { DataContext } from '../../context/data-context';
import type { DbOrTx } from '../../db/client';
import type { PatientScope } from '../access/patient-scope';
import { serverKind } from './kinds';
import type { KindTable } from './kinds/server-kind';

type Raw = Record<string, unknown>;

const tableOf = (kind: RecordKind): KindTable => serverKind(kind).table;
const columnsOf = (kind: RecordKind): Record<string, PgColumn> => getTableColumns(tableOf(kind)) as Record<string, PgColumn>;

/** The list's ORDER BY: the kind's sort keys, each descending (the client sorts the same way: contracts/record-order.ts). */
const orderOf = (kind: RecordKind): SQL[] => kindContract(kind).order.map((key) => desc(columnsOf(kind)[key]!));

/** Database row -> API row: numeric columns arrive as text, timestamps as Date. */
function toRow<K extends RecordKind>(kind: K, raw: Raw): RecordRows[K] {
  const row: Raw = { ...raw };
  for (const [key, column] of Object.entries(columnsOf(kind))) {
    const v = row[key];
    if (v === null || v === undefined) continue;
    if (column.columnType === 'PgNumeric') row[key] = Number(v);
    if (column.columnType === 'PgTimestamp' && v instanceof Date) row[key] = v.toISOString();
  }
  return row as RecordRows[K];
}

/** API values -> column values: numbers for numeric columns as text (exact), ISO timestamps as Date. */
function toValues(kind: RecordKind, values: Raw): Raw {
  const out: Raw = {};
  const columns = columnsOf(kind);
  for (const [key, v] of Object.entries(values)) {
    const column = columns[key];
    if (!column) continue; // an input field that is not stored as such
    if (column.columnType === 'PgNumeric' && typeof v === 'number') out[key] = String(v);
    else if (column.columnType === 'PgTimestamp' && typeof v === 'string') out[key] = new Date(v);
    else out[key] = v;
  }
  return out;
}

/**
 * A row as JSON in the contract's shape, built from the table: camelCase keys, dates as YYYY-MM-DD, numeric as
 * numbers, timestamps as ISO 8601 UTC with milliseconds (what Date#toISOString gives for inserted rows).
 */
function jsonRow(kind: RecordKind): SQL {
  const fields = Object.entries(columnsOf(kind)).map(([key, column]) => {
    let value: SQL = sql`${column}`;
    if (column.columnType === 'PgNumeric') value = sql`${column}::float8`;
    if (column.columnType === 'PgTimestamp') value = sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    return sql`${sql.raw(`'${key}'`)}, ${value}`;
  });
  return sql`json_build_object(${sql.join(fields, sql`, `)})`;
}

/** One list as a JSON array (newest first): a scalar subquery, so several lists come back in one statement. */
export function listJson(kind: RecordKind, patientId: number): SQL {
  const table = tableOf(kind);
  return sql`(SELECT coalesce(json_agg(${jsonRow(kind)} ORDER BY ${sql.join(orderOf(kind), sql`, `)}), '[]'::json)
    FROM ${table} WHERE ${table.patientId} = ${patientId})`;
}

/** The given lists of one patient in one round trip. */
async function selectLists<K extends RecordKind>(
  tx: DbOrTx,
  kinds: readonly K[],
  patientId: number,
): Promise<{ [P in K]: RecordRows[P][] }> {
  const columns = kinds.map((kind) => sql`${listJson(kind, patientId)} AS ${sql.identifier(kind)}`);
  const result = await tx.execute(sql`SELECT ${sql.join(columns, sql`, `)}`);
  return (result as unknown as { rows: { [P in K]: RecordRows[P][] }[] }).rows[0]!;
}

// Statements go through the KindTable base type: Drizzle cannot type one statement over every kind's table, so rows
// come back as Raw and toRow gives them their contract shape.

/** One list of the scope's patient, newest first. */
export async function selectList<K extends RecordKind>(scope: PatientScope<Actor>, kind: K): Promise<RecordRows[K][]> {
  return (await selectLists(scope.tx, [kind], scope.patientId))[kind];
}

/** Every list of the scope's patient in one round trip. */
export async function selectAllLists(scope: PatientScope<Actor>): Promise<RecordLists> {
  return selectLists(scope.tx, RECORD_KINDS, scope.patientId);
}

/** The given lists of the scope's patient in one round trip. */
export async function selectListsOf<K extends RecordKind>(
  scope: PatientScope<Actor>,
  kinds: readonly K[],
): Promise<{ [P in K]: RecordRows[P][] }> {
  return selectLists(scope.tx, kinds, scope.patientId);
}

/** Inserts one item for the scope's patient; returns the stored row. */
export async function insertItem<K extends RecordKind>(scope: PatientScope, kind: K, values: Raw): Promise<RecordRows[K]> {
  const [raw] = (await scope.tx
    .insert(tableOf(kind))
    .values(toValues(kind, { ...values, patientId: scope.patientId }))
    .returning()) as Raw[];
  return toRow(kind, raw!);
}

/** Replaces the stored fields of one item of the scope's patient; returns the stored row, or null when there is none. */
export async function updateItem<K extends RecordKind>(
  scope: PatientScope,
  kind: K,
  id: number,
  values: Raw,
): Promise<RecordRows[K] | null> {
  const table = tableOf(kind);
  const { id: _id, patientId: _p, ...rest } = toValues(kind, values);
  const [raw] = (await scope.tx
    .update(table)
    .set(rest)
    .where(and(eq(table.id, id), eq(table.patientId, scope.patientId)))
    .returning()) as Raw[];
  return raw ? toRow(kind, raw) : null;
}

/**
 * The patient an item belongs to, its row locked until commit (so the grant check and the change see the same
 * item); null when there is no such item. Reads nothing else of the record.
 */
export async function lockItemPatient(ctx: DataContext, kind: RecordKind, id: number): Promise<number | null> {
  const table = tableOf(kind);
  const [item] = (await ctx.tx.select({ patientId: table.patientId }).from(table).where(eq(table.id, id)).for('update')) as {
    patientId: number;
  }[];
  return item?.patientId ?? null;
}

/** The patient an item belongs to, without a lock (for reads); null when there is no such item. */
export async function itemPatient(ctx: DataContext, kind: RecordKind, id: number): Promise<number | null> {
  const table = tableOf(kind);
  const [item] = (await ctx.tx.select({ patientId: table.patientId }).from(table).where(eq(table.id, id))) as { patientId: number }[];
  return item?.patientId ?? null;
}

/** One item of the scope's patient, or null when the patient has no such item. */
export async function selectItem<K extends RecordKind>(scope: PatientScope<Actor>, kind: K, id: number): Promise<RecordRows[K] | null> {
  const table = tableOf(kind);
  const [raw] = (await scope.tx
    .select()
    .from(table)
    .where(and(eq(table.id, id), eq(table.patientId, scope.patientId)))) as Raw[];
  return raw ? toRow(kind, raw) : null;
}

/** Deletes one item of the scope's patient; returns the deleted row, or null when the patient has no such item. */
export async function deleteItem<K extends RecordKind>(scope: PatientScope, kind: K, id: number): Promise<RecordRows[K] | null> {
  const table = tableOf(kind);
  const [raw] = (await scope.tx
    .delete(table)
    .where(and(eq(table.id, id), eq(table.patientId, scope.patientId)))
    .returning()) as Raw[];
  return raw ? toRow(kind, raw) : null;
}
