// The clinical lists (diagnoses, appointments, allergies, medications, vaccines) and vital signs. Every read and
// change of a patient's items takes a PatientScope: the data context of a transaction in which the access module
// checked this user's live grant for that patient (docs/decisions/009-data-context.md).
import { and, desc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { RECORD_KINDS, type RecordKind, type RecordRows } from '../../../contracts/record-rows';
import type { Actor } from '../../context/actor';
import type { DataContext } from '../../context/data-context';
import type { DbOrTx } from '../../db/client';
import { allergies, appointments, diagnoses, medications, vaccines, vitals } from '../../db/schema';
import type { PatientScope } from '../access/patient-scope';

interface TableSpec {
  table: PgTable;
  id: PgColumn;
  patientId: PgColumn;
  order: SQL[];
}

const SPECS: Record<RecordKind, TableSpec> = {
  diagnoses: {
    table: diagnoses,
    id: diagnoses.id,
    patientId: diagnoses.patientId,
    order: [desc(diagnoses.diagnosedDate), desc(diagnoses.id)],
  },
  appointments: {
    table: appointments,
    id: appointments.id,
    patientId: appointments.patientId,
    order: [desc(appointments.date), desc(appointments.time), desc(appointments.id)],
  },
  allergies: {
    table: allergies,
    id: allergies.id,
    patientId: allergies.patientId,
    order: [desc(allergies.reportedDate), desc(allergies.id)],
  },
  medications: {
    table: medications,
    id: medications.id,
    patientId: medications.patientId,
    order: [desc(medications.prescribedDate), desc(medications.id)],
  },
  vaccines: { table: vaccines, id: vaccines.id, patientId: vaccines.patientId, order: [desc(vaccines.date), desc(vaccines.id)] },
  vitals: { table: vitals, id: vitals.id, patientId: vitals.patientId, order: [desc(vitals.recordedAt), desc(vitals.id)] },
};

type Raw = Record<string, unknown>;
const decimal = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Database row -> API row: numeric columns arrive as text, timestamps as Date. The other kinds are already right. */
function toRow<K extends RecordKind>(kind: K, raw: Raw): RecordRows[K] {
  if (kind !== 'vitals') return raw as unknown as RecordRows[K];
  const v = raw as Raw & { recordedAt: Date };
  return {
    ...v,
    temperature: decimal(v.temperature),
    weight: decimal(v.weight),
    recordedAt: v.recordedAt.toISOString(),
  } as unknown as RecordRows[K];
}

/** What an insert stores besides the patient: the parsed input (and, for vital signs, who and when). */
export type NewRecordValues = Raw;

function toValues(kind: RecordKind, values: Raw): Raw {
  if (kind !== 'vitals') return values;
  const num = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
  return { ...values, temperature: num(values.temperature), weight: num(values.weight) };
}

/**
 * A row as JSON in the contract's shape, built from the schema: camelCase keys, dates as YYYY-MM-DD, numeric as
 * numbers, timestamps as ISO 8601 UTC with milliseconds (what Date#toISOString gives for inserted rows).
 */
function jsonRow(table: PgTable): SQL {
  const fields = Object.entries(getTableColumns(table)).map(([key, column]) => {
    let value: SQL = sql`${column}`;
    if (column.columnType === 'PgNumeric') value = sql`${column}::float8`;
    if (column.columnType === 'PgTimestamp') value = sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    return sql`${sql.raw(`'${key}'`)}, ${value}`;
  });
  return sql`json_build_object(${sql.join(fields, sql`, `)})`;
}

/** One list as a JSON array (newest first): a scalar subquery, so several lists come back in one statement. */
export function listJson(kind: RecordKind, patientId: number): SQL {
  const s = SPECS[kind];
  return sql`(SELECT coalesce(json_agg(${jsonRow(s.table)} ORDER BY ${sql.join(s.order, sql`, `)}), '[]'::json)
    FROM ${s.table} WHERE ${s.patientId} = ${patientId})`;
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

async function selectRows<K extends RecordKind>(tx: DbOrTx, kind: K, patientId: number): Promise<RecordRows[K][]> {
  return (await selectLists(tx, [kind], patientId))[kind];
}

// Inserts and deletes go through the PgTable base type: Drizzle cannot type one statement over six tables, so
// rows come back as Raw and toRow gives them their contract shape.

/** One list of the scope's patient, newest first. */
export async function selectList<K extends RecordKind>(scope: PatientScope<Actor>, kind: K): Promise<RecordRows[K][]> {
  return selectRows(scope.tx, kind, scope.patientId);
}

export type RecordLists = { [K in RecordKind]: RecordRows[K][] };

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
export async function insertItem<K extends RecordKind>(scope: PatientScope, kind: K, values: NewRecordValues): Promise<RecordRows[K]> {
  const [raw] = (await scope.tx
    .insert(SPECS[kind].table)
    .values(toValues(kind, { ...values, patientId: scope.patientId }))
    .returning()) as Raw[];
  return toRow(kind, raw!);
}

/**
 * The patient an item belongs to, its row locked until commit (so the grant check and the delete see the same
 * item); null when there is no such item. Reads nothing else of the record.
 */
export async function lockItemPatient(ctx: DataContext, kind: RecordKind, id: number): Promise<number | null> {
  const s = SPECS[kind];
  const [item] = (await ctx.tx.select({ patientId: s.patientId }).from(s.table).where(eq(s.id, id)).for('update')) as {
    patientId: number;
  }[];
  return item?.patientId ?? null;
}

/** The patient an item belongs to, without a lock (for reads); null when there is no such item. */
export async function itemPatient(ctx: DataContext, kind: RecordKind, id: number): Promise<number | null> {
  const s = SPECS[kind];
  const [item] = (await ctx.tx.select({ patientId: s.patientId }).from(s.table).where(eq(s.id, id))) as { patientId: number }[];
  return item?.patientId ?? null;
}

/** One item of the scope's patient, or null when the patient has no such item. */
export async function selectItem<K extends RecordKind>(scope: PatientScope<Actor>, kind: K, id: number): Promise<RecordRows[K] | null> {
  const s = SPECS[kind];
  const [raw] = (await scope.tx
    .select()
    .from(s.table)
    .where(and(eq(s.id, id), eq(s.patientId, scope.patientId)))) as Raw[];
  return raw ? toRow(kind, raw) : null;
}

/** Deletes one item of the scope's patient; returns the deleted row, or null when the patient has no such item. */
export async function deleteItem<K extends RecordKind>(scope: PatientScope, kind: K, id: number): Promise<RecordRows[K] | null> {
  const s = SPECS[kind];
  const [raw] = (await scope.tx
    .delete(s.table)
    .where(and(eq(s.id, id), eq(s.patientId, scope.patientId)))
    .returning()) as Raw[];
  return raw ? toRow(kind, raw) : null;
}
