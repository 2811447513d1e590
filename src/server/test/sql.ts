// Raw SQL for assertions in tests: the rows, whichever driver runs the test database.
import type { SQL } from 'drizzle-orm';
import type { Db } from '../db/client';

export async function queryRows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

export async function queryOne<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T | undefined> {
  return (await queryRows<T>(db, query))[0];
}
