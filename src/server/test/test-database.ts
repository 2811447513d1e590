// A database of its own for each test file: in-memory PGlite by default, or a uniquely named
// PostgreSQL database when DATABASE_URL is set (created here, dropped afterwards).
// Under Vitest both are copies of one database migrated once per run by `test-database.global-setup.ts`
// (docs/decisions/010-test-databases.md); elsewhere (benchmarks) each is migrated here.
import { openDatabase, type DatabaseHandle } from '../db/client';
import { createScratchDatabase, openPgliteSnapshot } from '../db/scratch-database';

export interface TestDatabase {
  handle: DatabaseHandle;
  /** The connection string of the test database, when on PostgreSQL. */
  url: string | undefined;
  dispose(): Promise<void>;
}

/** Set by the global setup: the migrated PostgreSQL template database, or the file of the migrated PGlite snapshot. */
export const TEMPLATE_DATABASE_ENV = 'NHR_TEST_TEMPLATE_DATABASE';
export const PGLITE_SNAPSHOT_ENV = 'NHR_TEST_PGLITE_SNAPSHOT';

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const snapshot = process.env[PGLITE_SNAPSHOT_ENV];
    const handle = snapshot ? await openPgliteSnapshot(snapshot) : await openDatabase({ dataDir: 'memory://' });
    if (!snapshot) await handle.migrate();
    return { handle, url: undefined, dispose: () => handle.close() };
  }
  const template = process.env[TEMPLATE_DATABASE_ENV] || undefined;
  const scratch = await createScratchDatabase(serverUrl, 'nhr_test', { template });
  const handle = await openDatabase({ databaseUrl: scratch.url, poolSize: 5 });
  if (!template) await handle.migrate();
  return {
    handle,
    url: scratch.url,
    async dispose() {
      await handle.close();
      await scratch.drop();
    },
  };
}
