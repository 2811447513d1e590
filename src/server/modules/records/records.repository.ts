// The clinical lists (diagnoses, appointments, allergies, medications, vaccines) and vital signs. Every read and
// change runs in one transaction with the grant check (`guard`, given by the service) and its audit row.
import { desc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { RECORD_KINDS, type RecordKind, type RecordRows } from '../../../contracts/record-rows';
import { writeAudit, type AuditEntry } from '../../audit/audit-writer';
import type { Db, DbOrTx } from '../../db/client';
import { allergies, appointments, diagnoses, medications, vaccines, vitals } from '../../db/schema';

/** Checks (inside the transaction) that the caller may touch this patient's record; throws otherwise. */
export type RecordGuard<T = void> = (tx: DbOrTx, patientId: number) => Promise<T>;

interface TableSpec {
  table: PgTable;
  id: PgColumn;
  patientId: PgColumn;
  order: SQL[];
}

const SPECS: Record<RecordKind, TableSpec> = {
  diagnoses: { table: diagnoses, id: diagnoses.id, patientId: diagnoses.patientId, order: [desc(diagnoses.diagnosedDate), desc(diagnoses.id)] },
  appointments: {
    table: appointments,
    id: appointments.id,
    patientId: appointments.patientId,
    order: [desc(appointments.date), desc(appointments.time), desc(appointments.id)],
  },
  allergies: { table: allergies, id: allergies.id, patientId: allergies.patientId, order: [desc(allergies.reportedDate), desc(allergies.id)] },
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
  return { ...v, temperature: decimal(v.temperature), weight: decimal(v.weight), recordedAt: v.recordedAt.toISOString() } as unknown as RecordRows[K];
}

/** What an insert stores: the parsed input plus patientId (and, for vital signs, who and when). */
export type NewRecordValues = Raw & { patientId: number };

function toValues(kind: RecordKind, values: NewRecordValues): Raw {
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
function listJson(kind: RecordKind, patientId: number): SQL {
  const s = SPECS[kind];
  return sql`(SELECT coalesce(json_agg(${jsonRow(s.table)} ORDER BY ${sql.join(s.order, sql`, `)}), '[]'::json)
    FROM ${s.table} WHERE ${s.patientId} = ${patientId})`;
}

/** The given lists of one patient in one round trip. */
async function selectLists<K extends RecordKind>(tx: DbOrTx, kinds: readonly K[], patientId: number): Promise<{ [P in K]: RecordRows[P][] }> {
  const columns = kinds.map((kind) => sql`${listJson(kind, patientId)} AS ${sql.identifier(kind)}`);
  const result = await tx.execute(sql`SELECT ${sql.join(columns, sql`, `)}`);
  return (result as unknown as { rows: { [P in K]: RecordRows[P][] }[] }).rows[0]!;
}

async function selectRows<K extends RecordKind>(tx: DbOrTx, kind: K, patientId: number): Promise<RecordRows[K][]> {
  return (await selectLists(tx, [kind], patientId))[kind];
}

// Inserts and deletes go through the PgTable base type: Drizzle cannot type one statement over six tables, so
// rows come back as Raw and toRow gives them their contract shape.

/** One list of a patient, after the guard, with its audit row. */
export async function listRecorded<K extends RecordKind>(
  db: Db,
  kind: K,
  patientId: number,
  guard: RecordGuard,
  audit: (rows: RecordRows[K][]) => AuditEntry,
): Promise<RecordRows[K][]> {
  return db.transaction(async (tx) => {
    await guard(tx, patientId);
    const rows = await selectRows(tx, kind, patientId);
    await writeAudit(tx, audit(rows));
    return rows;
  });
}

/** Inserts one item after the guard, with its audit row; returns the stored row. */
export async function insertRecorded<K extends RecordKind>(
  db: Db,
  kind: K,
  values: NewRecordValues,
  guard: RecordGuard,
  audit: (row: RecordRows[K]) => AuditEntry,
): Promise<RecordRows[K]> {
  return db.transaction(async (tx) => {
    await guard(tx, values.patientId);
    const [raw] = (await tx.insert(SPECS[kind].table).values(toValues(kind, values)).returning()) as Raw[];
    const row = toRow(kind, raw!);
    await writeAudit(tx, audit(row));
    return row;
  });
}

/**
 * Deletes one item if the guard allows it for the item's patient, with its audit row; null when no such item.
 * The row is locked first, so the guard and the delete see the same item.
 */
export async function deleteRecorded<K extends RecordKind>(
  db: Db,
  kind: K,
  id: number,
  guard: RecordGuard,
  audit: (row: RecordRows[K]) => AuditEntry,
): Promise<RecordRows[K] | null> {
  const s = SPECS[kind];
  return db.transaction(async (tx) => {
    const [item] = (await tx.select({ patientId: s.patientId }).from(s.table).where(eq(s.id, id)).for('update')) as { patientId: number }[];
    if (!item) return null;
    await guard(tx, item.patientId);
    const [raw] = (await tx.delete(s.table).where(eq(s.id, id)).returning()) as Raw[];
    const row = toRow(kind, raw!);
    await writeAudit(tx, audit(row));
    return row;
  });
}

export type WholeRecord<P> = { patient: P } & { [K in RecordKind]: RecordRows[K][] };

/** The patient (from the guard) and every list, with one audit row, in one transaction. */
export async function readWholeRecord<P>(
  db: Db,
  patientId: number,
  guard: RecordGuard<P>,
  audit: (record: WholeRecord<P>) => AuditEntry,
): Promise<WholeRecord<P>> {
  return db.transaction(async (tx) => {
    const patient = await guard(tx, patientId);
    const record: WholeRecord<P> = { patient, ...(await selectLists(tx, RECORD_KINDS, patientId)) };
    await writeAudit(tx, audit(record));
    return record;
  });
}
