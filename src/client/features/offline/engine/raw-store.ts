// Where the offline engine keeps its bytes (issue 27, decision 061): a few named tables of key -> value. The
// browser's is IndexedDB (idb-store.ts); Node's tests use memory-store.ts. The engine puts only sealed values
// (store-crypto.ts) in every table but `meta`, and every key is an id or a random UUID, never a name.
import type { Sealed, WrappedKey } from './store-crypto';

export const TABLES = ['meta', 'records', 'appointments', 'queue', 'access'] as const;
export type Table = (typeof TABLES)[number];

/** The one clear record in `meta`: which device, whose, the wrapped key and when the server last answered. */
export interface StoreMeta {
  deviceId: string;
  userId: string;
  wrappedKey: WrappedKey;
  /** ISO: the last answer from the server (the 72-hour expiry counts from it). */
  lastContactAt: string;
  expiryHours: number;
}

export type TableValue<T extends Table> = T extends 'meta' ? StoreMeta : Sealed;

export interface RawStore {
  get<T extends Table>(table: T, key: string): Promise<TableValue<T> | undefined>;
  put<T extends Table>(table: T, key: string, value: TableValue<T>): Promise<void>;
  delete(table: Table, key: string): Promise<void>;
  keys(table: Table): Promise<string[]>;
  /** Every [key, value] of a table. */
  entries<T extends Table>(table: T): Promise<[string, TableValue<T>][]>;
  /** Removes everything, the database itself included. */
  destroy(): Promise<void>;
}
