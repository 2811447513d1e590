// The offline engine's store in memory (issue 27): for Node's tests, which have no IndexedDB. Values are kept as the
// engine handed them (sealed), so a test can read what would have been on the disk.
import type { RawStore, Table, TableValue } from './raw-store';

export class MemoryStore implements RawStore {
  readonly tables = new Map<Table, Map<string, unknown>>();

  private table(t: Table): Map<string, unknown> {
    let m = this.tables.get(t);
    if (!m) this.tables.set(t, (m = new Map()));
    return m;
  }
  async get<T extends Table>(table: T, key: string): Promise<TableValue<T> | undefined> {
    return this.table(table).get(key) as TableValue<T> | undefined;
  }
  async put<T extends Table>(table: T, key: string, value: TableValue<T>): Promise<void> {
    this.table(table).set(key, structuredClone(value));
  }
  async delete(table: Table, key: string): Promise<void> {
    this.table(table).delete(key);
  }
  async keys(table: Table): Promise<string[]> {
    return [...this.table(table).keys()];
  }
  async entries<T extends Table>(table: T): Promise<[string, TableValue<T>][]> {
    return [...this.table(table).entries()] as [string, TableValue<T>][];
  }
  async destroy(): Promise<void> {
    this.tables.clear();
  }
}
