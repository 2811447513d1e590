// The versions of clinical rows (record_versions, decision 041): each add, edit and entered-in-error stores the row
// as it then was, in the statement that makes the change (records.repository.ts), so the row's history can be read
// and a stale edit can name what changed since its version. A row stored before versions existed has no entry for its
// first version until it is first changed: the change stores it then (`at` and `by` unknown).
import { and, asc, eq } from 'drizzle-orm';
import type { RecordKind, RecordRows } from '../../../contracts/kinds';
import type { HistoryAction } from '../../../contracts/record-versions';
import { recordVersions } from '../../db/schema';
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
 * Puts right the changed field names of a version stored with its change (records.repository's writeNextVersion names
 * the fields it expects to change; the database may have stored a value otherwise than it was given).
 */
export async function correctChanged(
  scope: PatientScope,
  kind: RecordKind,
  itemId: number,
  version: number,
  changed: string[],
): Promise<void> {
  await scope.tx
    .update(recordVersions)
    .set({ changed })
    .where(and(eq(recordVersions.kind, kind), eq(recordVersions.itemId, itemId), eq(recordVersions.version, version)));
}
