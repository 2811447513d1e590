// The order of each record list, newest first (SPEC §2), as the server's queries sort it
// (src/server/modules/records/records.repository.ts SPECS): the client puts a row it just added in the same place
// instead of fetching the list again (issue 15 item 5). records-order.test.ts holds the two to the same answer.
import type { RecordKind, RecordRows } from './record-rows';

type Row = Record<string, unknown> & { id: number };

/** The sort keys of a kind, each compared descending; the id last. */
export const RECORD_ORDER: { [K in RecordKind]: (keyof RecordRows[K] & string)[] } = {
  diagnoses: ['diagnosedDate', 'id'],
  appointments: ['date', 'time', 'id'],
  allergies: ['reportedDate', 'id'],
  medications: ['prescribedDate', 'id'],
  vaccines: ['date', 'id'],
  vitals: ['recordedAt', 'id'],
};

const descending = (a: unknown, b: unknown): number => {
  if (a === b) return 0;
  // PostgreSQL puts NULL first in a descending sort (an appointment without a time).
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return a < b ? 1 : -1;
};

/** Compares two rows of `kind` as the list shows them (newest first). */
export function compareRecordRows<K extends RecordKind>(kind: K): (a: RecordRows[K], b: RecordRows[K]) => number {
  const keys = RECORD_ORDER[kind] as string[];
  return (a, b) => {
    for (const key of keys) {
      const c = descending((a as unknown as Row)[key], (b as unknown as Row)[key]);
      if (c !== 0) return c;
    }
    return 0;
  };
}

/** `list` with `row` added in its place. */
export function withRow<K extends RecordKind>(kind: K, list: readonly RecordRows[K][], row: RecordRows[K]): RecordRows[K][] {
  return [...list.filter((r) => (r as unknown as Row).id !== (row as unknown as Row).id), row].sort(compareRecordRows(kind));
}
