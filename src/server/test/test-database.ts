// A database of its own for each test file: in-memory PGlite by default, or a uniquely named
// PostgreSQL database when DATABASE_URL is set (created here, dropped afterwards).
import { openDatabase, type DatabaseHandle } from '../db/client';
import { createScratchDatabase } from '../db/scratch-database';

export interface TestDatabase {
  handle: DatabaseHandle;
  /** The connection string of the test database, when on PostgreSQL. */
  url: string | undefined;
  dispose(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const handle = await openDatabase({ dataDir: 'memory://' });
    await handle.migrate();
    return { handle, url: undefined, dispose: () => handle.close() };
  }
  const scratch = await createScratchDatabase(serverUrl, 'nhr_test');
  const handle = await openDatabase({ databaseUrl: scratch.url, poolSize: 5 });
  await handle.migrate();
  return {
    handle,
    url: scratch.url,
    async dispose() {
      await handle.close();
      await scratch.drop();
    },
  };
}
