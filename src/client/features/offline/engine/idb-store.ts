// The offline engine's store in the browser (issue 27, decision 061): one IndexedDB database through `idb`, a table
// per object store. Keys are ids or random UUIDs; values other than `meta` are sealed (store-crypto.ts).
import { deleteDB, openDB, type IDBPDatabase } from 'idb';
import { TABLES, type RawStore, type Table, type TableValue } from './raw-store';

export const DB_NAME = 'nhr-offline';
const DB_VERSION = 1;

export class IdbStore implements RawStore {
  private db: Promise<IDBPDatabase> | null = null;

  private open(): Promise<IDBPDatabase> {
    this.db ??= openDB(DB_NAME, DB_VERSION, {
      upgrade(db) {
        for (const t of TABLES) if (!db.objectStoreNames.contains(t)) db.createObjectStore(t);
      },
    });
    return this.db;
  }
  async get<T extends Table>(table: T, key: string): Promise<TableValue<T> | undefined> {
    return (await (await this.open()).get(table, key)) as TableValue<T> | undefined;
  }
  async put<T extends Table>(table: T, key: string, value: TableValue<T>): Promise<void> {
    await (await this.open()).put(table, value, key);
  }
  async delete(table: Table, key: string): Promise<void> {
    await (await this.open()).delete(table, key);
  }
  async keys(table: Table): Promise<string[]> {
    return ((await (await this.open()).getAllKeys(table)) as IDBValidKey[]).map(String);
  }
  async entries<T extends Table>(table: T): Promise<[string, TableValue<T>][]> {
    const tx = (await this.open()).transaction(table);
    const [keys, values] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll(), tx.done]);
    return keys.map((k, i) => [String(k), values[i] as TableValue<T>]);
  }
  async destroy(): Promise<void> {
    const db = this.db;
    this.db = null;
    if (db) (await db).close();
    await deleteDB(DB_NAME);
  }
}
