// The order of each record list, newest first (SPEC §2), as each kind declares it (contracts/kinds) and the
// server's queries sort it: the client puts a row it just added in the same place instead of fetching the list
// again (issue 15 item 5). record-order.test.ts holds the two to the same answer.
import { kindContract, type RecordKind, type RecordRows } from './kinds';

type Row = Record<string, unknown> & { id: number };

const descending = (a: unknown, b: unknown): number => {
  if (a === b) return 0;
  // PostgreSQL puts NULL first in a descending sort (an appointment without a time).
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return a < b ? 1 : -1;
};

/** Compares two rows of `kind` as the list shows them (newest first). */
export function compareRecordRows<K extends RecordKind>(kind: K): (a: RecordRows[K], b: RecordRows[K]) => number {
  const keys = kindContract(kind).order;
  return (a, b) => {
    for (const key of keys) {
      const c = descending((a as unknown as Row)[key], (b as unknown as Row)[key]);
      if (c !== 0) return c;
    }
    return 0;
  };
}

/** `list` with `row` added in its place (or, for an edited row, moved to it). */
export function withRow<K extends RecordKind>(kind: K, list: readonly RecordRows[K][], row: RecordRows[K]): RecordRows[K][] {
  return [...list.filter((r) => (r as unknown as Row).id !== (row as unknown as Row).id), row].sort(compareRecordRows(kind));
}
