// The delta read merged into a kept record (issue 27, decision 061; the read: decision 041): each changed row
// replaces the kept row of the same kind and id; a row entered in error or withheld leaves the device.
import { RECORD_KINDS, type RecordKind, type RecordRows } from '../../../../contracts/kinds';
import type { ChangesResponse } from '../../../../contracts/record-versions';

export type KindLists = { [K in RecordKind]: RecordRows[K][] };

export const emptyLists = (): KindLists => Object.fromEntries(RECORD_KINDS.map((k) => [k, []])) as unknown as KindLists;

/** The lists with `changes` applied (a new object; `lists` is not changed). */
export function mergeChanges(lists: KindLists, changes: ChangesResponse['changes']): KindLists {
  const out = Object.fromEntries(RECORD_KINDS.map((k) => [k, [...(lists[k] ?? [])]])) as unknown as Record<RecordKind, { id: number }[]>;
  for (const change of changes) {
    const rows = out[change.kind];
    if (!rows) continue; // a kind this client does not know yet
    const at = rows.findIndex((r) => r.id === change.id);
    if (change.state === 'current' && change.row) {
      const row = change.row as unknown as { id: number };
      if (at >= 0) rows[at] = row;
      else rows.push(row);
    } else if (at >= 0) rows.splice(at, 1);
  }
  return out as unknown as KindLists;
}
