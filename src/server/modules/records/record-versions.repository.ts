// The versions of clinical rows (record_versions, decision 041): each add, edit and entered-in-error stores the row
// as it then was, so the row's history can be read and a stale edit can name what changed since its version. A row
// stored before versions existed has no entry for its first version until it is first changed: the change stores it
// then (`at` and `by` unknown).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { RecordKind, RecordRows } from '../../../contracts/kinds';
import type { HistoryAction } from '../../../contracts/record-versions';
import { idempotencyKeys, recordVersions } from '../../db/schema';
import type { PatientScope } from '../access/patient-scope';
import type { Actor } from '../../context/actor';

export interface StoredVersion {
  version: number;
  action: HistoryAction;
  at: string | null;
  by: string | null;
  changed: string[];
  /** The row as stored then (the presenter decides what a reader sees of it). */
  row: Record<string, unknown>;
}

/** Stores versions of one row; a version already stored is kept (the first version of an older row). */
export async function insertVersions(
  scope: PatientScope,
  kind: RecordKind,
  itemId: number,
  versions: (Omit<StoredVersion, 'at'> & { at: Date | null })[],
): Promise<void> {
  await scope.tx
    .insert(recordVersions)
    .values(
      versions.map((v) => ({
        kind,
        itemId,
        version: v.version,
        patientId: scope.patientId,
        action: v.action,
        at: v.at,
        by: v.by,
        changed: v.changed,
        row: v.row,
      })),
    )
    .onConflictDoNothing();
}

/** Every stored version of one row of the scope's patient, oldest first. */
export async function selectVersions(scope: PatientScope<Actor>, kind: RecordKind, itemId: number): Promise<StoredVersion[]> {
  const rows = await scope.tx
    .select()
    .from(recordVersions)
    .where(and(eq(recordVersions.kind, kind), eq(recordVersions.itemId, itemId), eq(recordVersions.patientId, scope.patientId)))
    .orderBy(asc(recordVersions.version));
  return rows.map((r) => ({
    version: r.version,
    action: r.action as HistoryAction,
    at: r.at ? r.at.toISOString() : null,
    by: r.by,
    changed: r.changed,
    row: r.row as RecordRows[RecordKind] as Record<string, unknown>,
  }));
}

/** One stored version of a row, or null when it was not kept. */
export async function selectVersion(
  scope: PatientScope,
  kind: RecordKind,
  itemId: number,
  version: number,
): Promise<Record<string, unknown> | null> {
  const [r] = await scope.tx
    .select({ row: recordVersions.row })
    .from(recordVersions)
    .where(and(eq(recordVersions.kind, kind), eq(recordVersions.itemId, itemId), eq(recordVersions.version, version)));
  return (r?.row as Record<string, unknown> | undefined) ?? null;
}

/**
 * An add's first version, and its Idempotency-Key when it has one, in one statement (one round trip on the add's
 * path): the key is claimed first, and the version stored only if the claim succeeded. False when the key was already
 * taken (by a concurrent add with the same key, which this statement waited for): the caller rolls back.
 */
export async function insertFirstVersion(
  scope: PatientScope,
  kind: RecordKind,
  row: { id: number } & Record<string, unknown>,
  by: { at: Date; name: string },
  key: { userId: string; key: string; requestHash: string } | null,
): Promise<boolean> {
  const values = sql`${kind}, ${row.id}::int, 1, ${scope.patientId}::int, 'created', ${by.at.toISOString()}::timestamptz, ${by.name}, '{}'::text[], ${JSON.stringify(row)}::jsonb`;
  const columns = sql`(kind, item_id, version, patient_id, action, at, by, changed, row)`;
  if (key === null) {
    await scope.tx.execute(sql`INSERT INTO ${recordVersions} ${columns} VALUES (${values})`);
    return true;
  }
  const result = await scope.tx.execute(sql`WITH k AS (
      INSERT INTO ${idempotencyKeys} (user_id, key, request_hash, kind, item_id)
      VALUES (${key.userId}, ${key.key}, ${key.requestHash}, ${kind}, ${row.id}::int) ON CONFLICT DO NOTHING RETURNING 1)
    INSERT INTO ${recordVersions} ${columns} SELECT ${values} FROM k RETURNING 1`);
  return (result as unknown as { rows: unknown[] }).rows.length === 1;
}
