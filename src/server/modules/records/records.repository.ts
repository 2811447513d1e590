// The record's lists, one table per kind (modules/records/kinds). Every read and change of a patient's items takes
// a PatientScope: the data context of a transaction in which the access module checked this user's live grant for
// that patient (docs/decisions/009-data-context.md). Nothing here knows a kind: columns are mapped by their types.
// Rows are versioned (decision 041): lists and item reads leave entered-in-error rows out, every stored row reaches
// its reader through the presenter (present.ts), and a change names the version it was made from.
import { createHash } from 'node:crypto';
import { and, desc, eq, getTableColumns, getTableName, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { kindContract, RECORD_KINDS, type RecordKind, type RecordLists, type RecordRows } from '../../../contracts/kinds';
import type { Actor } from '../../context/actor';
import type { DataContext } from '../../context/data-context';
import { hotStatement, slotValues, type DbOrTx, type Slots, type SlotValues } from '../../db/client';
import { idempotencyKeys, recordVersions } from '../../db/schema';
import type { PatientScope } from '../access/patient-scope';
import { serverKind } from './kinds';
import type { KindTable } from './kinds/server-kind';
import { presentRow, presentRows } from './present';
import { patientJoinedError } from '../patient-joins/joined-patient.repository';

type Raw = Record<string, unknown>;

const tableOf = (kind: RecordKind): KindTable => serverKind(kind).table;
/** The columns a row is read with: all but change_xid, which only the delta read compares. */
function columnsOf(kind: RecordKind): Record<string, PgColumn> {
  let columns = COLUMNS.get(kind);
  if (!columns) {
    const { changeXid: _x, ...rest } = getTableColumns(tableOf(kind)) as Record<string, PgColumn>;
    COLUMNS.set(kind, (columns = rest));
  }
  return columns;
}
const COLUMNS = new Map<RecordKind, Record<string, PgColumn>>();

/** The list's ORDER BY: the kind's sort keys, each descending (the client sorts the same way: contracts/record-order.ts). */
const orderOf = (kind: RecordKind): SQL[] => kindContract(kind).order.map((key) => desc(columnsOf(kind)[key]!));

/** Database row -> API row: numeric columns arrive as text, timestamps as Date. */
export function storedRow(kind: RecordKind, raw: Raw): Raw {
  const { changeXid: _x, ...row }: Raw = raw;
  for (const [key, column] of Object.entries(columnsOf(kind))) {
    const v = row[key];
    if (v === null || v === undefined) continue;
    if (column.columnType === 'PgNumeric') row[key] = Number(v);
    if (column.columnType === 'PgTimestamp' && v instanceof Date) row[key] = v.toISOString();
  }
  return row;
}

/** A stored row as its reader sees it (the presenter), or null when withheld. */
const toRow = <K extends RecordKind>(kind: K, raw: Raw): RecordRows[K] | null => presentRow(kind, storedRow(kind, raw));

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

/** The fields a change's values will have in the stored row, as its reader sees them (before the database has them). */
export const expectedRow = (kind: RecordKind, values: Raw): Raw => storedRow(kind, toValues(kind, values));

/**
 * A row as JSON in the contract's shape, built from the table: camelCase keys, dates as YYYY-MM-DD, numeric as
 * numbers, timestamps as ISO 8601 UTC with milliseconds (what Date#toISOString gives for inserted rows).
 */
export function jsonRow(kind: RecordKind): SQL {
  let row = JSON_ROWS.get(kind);
  if (!row) {
    const fields = Object.entries(columnsOf(kind)).map(([key, column]) => {
      let value: SQL = sql`${column}`;
      if (column.columnType === 'PgNumeric') value = sql`${column}::float8`;
      if (column.columnType === 'PgTimestamp') value = sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
      return sql`${sql.raw(`'${key}'`)}, ${value}`;
    });
    JSON_ROWS.set(kind, (row = sql`json_build_object(${sql.join(fields, sql`, `)})`));
  }
  return row;
}
/** Each kind's jsonRow, built once (it depends on nothing but the kind). */
const JSON_ROWS = new Map<RecordKind, SQL>();

/**
 * One list as a JSON array of stored rows (newest first, entered-in-error rows left out): a scalar subquery, so
 * several lists come back in one statement. Its rows reach readers only through presentLists.
 */
export function listJson(kind: RecordKind, patientId: number | SQL): SQL {
  const table = tableOf(kind);
  return sql`(SELECT coalesce(json_agg(${jsonRow(kind)} ORDER BY ${sql.join(orderOf(kind), sql`, `)}), '[]'::json)
    FROM ${table} WHERE ${table.patientId} = ${patientId} AND ${table.enteredInErrorAt} IS NULL)`;
}

/** Lists of stored rows (listJson) as their reader sees them. */
export function presentLists<L extends Partial<Record<RecordKind, unknown>>>(lists: L): L {
  const out: Raw = { ...lists };
  for (const kind of RECORD_KINDS) {
    const rows = lists[kind];
    if (Array.isArray(rows)) out[kind] = presentRows(kind, rows as Raw[]);
  }
  return out as L;
}

/**
 * The statement reading a set of lists, built once per set (db/client hotStatement): the portal and the full record
 * read every list on each request, and building that statement with drizzle each time cost more CPU than running it.
 */
const LIST_STATEMENTS = new Map<string, (db: DbOrTx, values: SlotValues<{ patientId: number }>) => Promise<Raw[]>>();
function listsStatement(kinds: readonly RecordKind[]) {
  const key = kinds.join(',');
  let statement = LIST_STATEMENTS.get(key);
  if (!statement) {
    const name = `nhr_lists_${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
    const build = (slot: Slots<{ patientId: number }>): SQL =>
      sql`SELECT ${sql.join(
        kinds.map((kind) => sql`${listJson(kind, sql`${slot.patientId}::int`)} AS ${sql.identifier(kind)}`),
        sql`, `,
      )}`;
    LIST_STATEMENTS.set(key, (statement = hotStatement<{ patientId: number }, Raw>(name, build)));
  }
  return statement;
}

/** The given lists of one patient in one round trip. */
async function selectLists<K extends RecordKind>(
  tx: DbOrTx,
  kinds: readonly K[],
  patientId: number,
): Promise<{ [P in K]: RecordRows[P][] }> {
  const [row] = await listsStatement(kinds)(tx, slotValues({ patientId }));
  return presentLists(row as { [P in K]: RecordRows[P][] });
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

/** Who changes a row and when (the server's clock). */
export interface ChangedBy {
  now: Date;
  /** The staff member's name, as the row's other "by" fields. */
  name: string;
}

/**
 * The columns a change writes (those whose value is not undefined: a column left out keeps its default, as the query
 * builder leaves it) and their values by slot name (`c0`, `c1`, …), for a statement of that shape.
 */
function columnCells(kind: RecordKind, values: Raw): { columns: PgColumn[]; slots: Raw } {
  const all = columnsOf(kind);
  const columns: PgColumn[] = [];
  const slots: Raw = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    slots[`c${columns.length}`] = value;
    columns.push(all[key]!);
  }
  return { columns, slots };
}

/** A column's slot, encoded as drizzle encodes a value for that column. */
const cellSql = (column: PgColumn, i: number): SQL => sql`${sql.param(sql.placeholder(`c${i}`), column)}`;

/**
 * The statement of one shape (the kind, the columns written, and the options that change its text), built once
 * (db/client hotStatement): a change writes the same columns nearly every time, so there are few shapes per kind.
 */
const SHAPES = new Map<string, (db: DbOrTx, values: SlotValues<Raw>) => Promise<Raw[]>>();
function shaped(prefix: string, kind: RecordKind, columns: PgColumn[], options: string, build: (slot: Slots<Raw>) => SQL) {
  const shape = `${prefix}_${tableName(kind)}_${options}_${columns.map((c) => c.name).join(',')}`;
  let statement = SHAPES.get(shape);
  if (!statement) {
    const name = `nhr_${prefix}_${tableName(kind)}_${createHash('sha256').update(shape).digest('hex').slice(0, 12)}`;
    SHAPES.set(shape, (statement = hotStatement<Raw, Raw>(name, build)));
  }
  return statement;
}

/** The row of `alias` (a CTE holding rows of the kind's table) as record_versions stores it: the read JSON, no `sealed`. */
const versionRowOf = (kind: RecordKind, alias: SQL): SQL =>
  sql`(SELECT (${jsonRow(kind)})::jsonb - 'sealed' FROM ${alias} AS ${sql.identifier(tableName(kind))})`;

const tableName = (kind: RecordKind): string => getTableName(tableOf(kind));

/**
 * Inserts one item for the scope's patient as version 1, with its first version in record_versions and, when `key`
 * is given, its Idempotency-Key claimed, in one statement (one round trip on the add's path). Only while the patient
 * is not joined into another record: the patient's row is locked FOR SHARE with `replaced_by IS NULL` (the index
 * lookup the foreign key check makes anyway). A join holds the row FOR NO KEY UPDATE, which FOR SHARE waits for (FOR
 * KEY SHARE would not), so an add racing a join waits and then, finding the patient joined, answers 409
 * PATIENT_JOINED (decision 048): nothing lands on the inactive record. The row as its reader
 * sees it, or null when the key was already taken (by an earlier add, or a concurrent one this statement waited
 * for): the caller then rolls back, so the row inserted here is gone.
 */
export async function insertItem<K extends RecordKind>(
  scope: PatientScope,
  kind: K,
  values: Raw,
  by: ChangedBy,
  key: { userId: string; key: string; requestHash: string } | null,
): Promise<RecordRows[K] | null> {
  const table = tableOf(kind);
  const { columns, slots } = columnCells(
    kind,
    toValues(kind, { ...values, patientId: scope.patientId, version: 1, updatedAt: by.now.toISOString(), updatedBy: by.name }),
  );
  const statement = shaped('insert', kind, columns, key === null ? 'unkeyed' : 'keyed', (slot) => {
    const claim =
      key === null
        ? sql``
        : sql`, k AS (INSERT INTO ${idempotencyKeys} (user_id, key, request_hash, kind, item_id)
                    SELECT ${slot.userId}::text, ${slot.key}::varchar, ${slot.requestHash}::varchar, ${slot.kind}::varchar, ins.id FROM ins
                    ON CONFLICT DO NOTHING RETURNING 1)`;
    return sql`WITH ins AS (
        INSERT INTO ${table} (${sql.join(
          columns.map((c) => sql.identifier(c.name)),
          sql`, `,
        )}) SELECT ${sql.join(
          columns.map((c, i) => cellSql(c, i)),
          sql`, `,
        )} FROM (SELECT 1 FROM patients WHERE id = ${slot.patientId}::int AND replaced_by IS NULL FOR SHARE) AS live
        RETURNING *)${claim},
      v AS (INSERT INTO ${recordVersions} (kind, item_id, version, patient_id, action, at, by, changed, row)
            SELECT ${slot.kind}::varchar, ins.id, 1, ins.patient_id, 'created', ${slot.at}::timestamptz, ${slot.by}::varchar,
                   '{}'::text[], ${versionRowOf(kind, sql`ins`)} FROM ins${key === null ? sql`` : sql` WHERE EXISTS (SELECT 1 FROM k)`})
    SELECT ins.*, ${key === null ? sql`true` : sql`EXISTS (SELECT 1 FROM k)`} AS "keyClaimed" FROM ins`;
  });
  const [raw] = await statement(
    scope.tx,
    slotValues(slots, { kind, patientId: scope.patientId, at: by.now.toISOString(), by: by.name }, key ?? {}),
  );
  // No row: the patient was joined into another record (decision 048), perhaps by a join this statement waited for.
  if (!raw) throw await patientJoinedError(scope.tx, scope.patientId);
  const { keyClaimed, ...row } = raw;
  return keyClaimed ? toRow(kind, builderRow(kind, row)) : null;
}

/**
 * A row of the kind's table as a raw statement returns it (column names, driver values) as the query builder would:
 * the table's field names, each value mapped from the driver as its column maps it.
 */
function builderRow(kind: RecordKind, raw: Raw): Raw {
  const out: Raw = {};
  for (const [key, column] of Object.entries(getTableColumns(tableOf(kind)) as Record<string, PgColumn>)) {
    const value = raw[column.name];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out;
}

/** A version's place in the row's history, stored with the version in the same statement. */
export interface NextVersion {
  action: 'edited' | 'entered-in-error';
  /** The names of the fields it changes (record-history's changedFields of the row before and after). */
  changed: string[];
  /** The row before, when it is version 1 of a row stored before versions existed: its first version is kept too. */
  legacyFirst: Raw | null;
}

/**
 * Writes the next version of one current item of the scope's patient (at `version` when given) and stores it in
 * record_versions, in one statement; null when there is no such item (or it is no longer at `version`).
 */
async function writeNextVersion<K extends RecordKind>(
  scope: PatientScope,
  kind: K,
  id: number,
  set: Raw,
  by: ChangedBy,
  version: number | null,
  next: NextVersion,
): Promise<RecordRows[K] | null> {
  const table = tableOf(kind);
  const { columns, slots } = columnCells(kind, toValues(kind, { ...set, updatedAt: by.now.toISOString(), updatedBy: by.name }));
  const options = `${version === null ? 'any' : 'at'}_${next.legacyFirst === null ? 'versioned' : 'legacy'}`;
  const statement = shaped('update', kind, columns, options, (slot) => {
    const assignments = [
      ...columns.map((c, i) => sql`${sql.identifier(c.name)} = ${cellSql(c, i)}`),
      sql`${sql.identifier(table.version.name)} = ${table.version} + 1`,
    ];
    const legacy =
      next.legacyFirst === null
        ? sql``
        : sql` UNION ALL SELECT ${slot.kind}::varchar, up.id, 1, up.patient_id, 'created', NULL::timestamptz, NULL::varchar,
                     '{}'::text[], ${slot.legacyRow}::jsonb FROM up`;
    return sql`WITH up AS (
        UPDATE ${table} SET ${sql.join(assignments, sql`, `)}
         WHERE ${table.id} = ${slot.id} AND ${table.patientId} = ${slot.patientId}
               ${version === null ? sql`` : sql`AND ${table.version} = ${slot.version}`} AND ${table.enteredInErrorAt} IS NULL
        RETURNING *),
      v AS (INSERT INTO ${recordVersions} (kind, item_id, version, patient_id, action, at, by, changed, row)
            SELECT ${slot.kind}::varchar, up.id, up.version, up.patient_id, ${slot.action}::varchar, ${slot.at}::timestamptz,
                   ${slot.by}::varchar, ${sql.param(sql.placeholder('changed'), recordVersions.changed)}::text[], ${versionRowOf(kind, sql`up`)}
              FROM up${legacy}
            ON CONFLICT DO NOTHING)
    SELECT * FROM up`;
  });
  const [raw] = await statement(
    scope.tx,
    slotValues(slots, {
      kind,
      id,
      patientId: scope.patientId,
      version,
      action: next.action,
      at: by.now.toISOString(),
      by: by.name,
      changed: next.changed,
      legacyRow: next.legacyFirst === null ? null : JSON.stringify(next.legacyFirst),
    }),
  );
  return raw ? toRow(kind, builderRow(kind, raw)) : null;
}

/** Replaces the stored fields of one current item if it is still at `version`: its next version, or null. */
export async function updateItem<K extends RecordKind>(
  scope: PatientScope,
  kind: K,
  id: number,
  version: number,
  values: Raw,
  by: ChangedBy,
  next: Omit<NextVersion, 'action'>,
): Promise<RecordRows[K] | null> {
  const { id: _id, patientId: _p, version: _v, uuid: _u, ...rest } = toValues(kind, values);
  return writeNextVersion(scope, kind, id, rest, by, version, { ...next, action: 'edited' });
}

/** Marks one current item entered in error (its next version; kept, left out of lists); the row, or null. */
export const markEnteredInError = <K extends RecordKind>(
  scope: PatientScope,
  kind: K,
  id: number,
  reason: string | null,
  by: ChangedBy,
  legacyFirst: Raw | null,
): Promise<RecordRows[K] | null> =>
  writeNextVersion(scope, kind, id, { enteredInErrorAt: by.now, enteredInErrorBy: by.name, enteredInErrorReason: reason }, by, null, {
    action: 'entered-in-error',
    changed: [],
    legacyFirst,
  });

/**
 * One item by id, its row locked until commit (so the grant check and the change see the same item), with the
 * patient it belongs to; null when there is no such item. `row` is what a reader would see of it: null when it is
 * withheld or (unless `enteredInError`) entered in error. The caller returns nothing of it before the access module
 * has checked the grant for `patientId`.
 */
export async function lockItem<K extends RecordKind>(
  ctx: DataContext,
  kind: K,
  id: number,
): Promise<{ patientId: number; row: RecordRows[K] | null } | null> {
  const [stored] = await lockStatement(kind)(ctx.tx, slotValues({ id }));
  if (!stored) return null;
  const raw = builderRow(kind, stored);
  const current = raw.enteredInErrorAt === null || raw.enteredInErrorAt === undefined;
  return { patientId: raw.patientId as number, row: current ? toRow(kind, raw) : null };
}

/** Each kind's lockItem statement, built once. */
type LockStatement = (db: DbOrTx, values: SlotValues<{ id: number }>) => Promise<Raw[]>;
const LOCKS = new Map<RecordKind, LockStatement>();
function lockStatement(kind: RecordKind): LockStatement {
  let statement = LOCKS.get(kind);
  if (!statement) {
    const table = tableOf(kind);
    statement = hotStatement<{ id: number }, Raw>(
      `nhr_lock_${tableName(kind)}`,
      (slot) => sql`SELECT * FROM ${table} WHERE ${table.id} = ${slot.id} FOR UPDATE`,
    );
    LOCKS.set(kind, statement);
  }
  return statement;
}

/** The patient an item belongs to, without a lock (for reads); null when there is no such item. */
export async function itemPatient(ctx: DataContext, kind: RecordKind, id: number): Promise<number | null> {
  const table = tableOf(kind);
  const [item] = (await ctx.tx.select({ patientId: table.patientId }).from(table).where(eq(table.id, id))) as { patientId: number }[];
  return item?.patientId ?? null;
}

/**
 * One item of the scope's patient as its reader sees it, or null when the patient has no such item, it is withheld,
 * or (unless `enteredInError`) it was entered in error.
 */
export async function selectItem<K extends RecordKind>(
  scope: PatientScope<Actor>,
  kind: K,
  id: number,
  options: { enteredInError?: boolean } = {},
): Promise<RecordRows[K] | null> {
  const table = tableOf(kind);
  const [raw] = (await scope.tx
    .select()
    .from(table)
    .where(
      and(eq(table.id, id), eq(table.patientId, scope.patientId), options.enteredInError ? undefined : isNull(table.enteredInErrorAt)),
    )) as Raw[];
  return raw ? toRow(kind, raw) : null;
}

/** One item by id with no grant check, for answering an add again to the staff member who made it (idempotency). */
export async function selectOwnAdd<K extends RecordKind>(tx: DbOrTx, kind: K, id: number): Promise<RecordRows[K] | null> {
  const table = tableOf(kind);
  const [raw] = (await tx.select().from(table).where(eq(table.id, id))) as Raw[];
  return raw ? toRow(kind, raw) : null;
}
