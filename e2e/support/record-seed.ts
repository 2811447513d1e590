// Seeds a journey's database before (PGlite) or after (PostgreSQL) the app starts: staff users and patients
// written directly, for journeys that do not go through the screens that create them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/server/db/client';
import type { Db } from '../../src/server/db/client';
import { createStaffUser } from '../../src/server/test/staff';
import { startApp, type RunningApp } from './server';

/** Every real database went through first-time setup: an active system administrator exists. */
async function seedWithSetupDone<T>(db: Db, seed: (db: Db) => Promise<T>): Promise<T> {
  await createStaffUser(db, { roleId: 1 });
  return seed(db);
}

/**
 * Starts the app with `seed` applied to its database: on PostgreSQL (DATABASE_URL) after start, through the new
 * database's URL; on PGlite before start, in a data folder the server then opens (PGlite allows one process).
 */
export async function startSeededApp<T>(seed: (db: Db) => Promise<T>): Promise<{ app: RunningApp; seeded: T }> {
  if (process.env.DATABASE_URL) {
    const app = await startApp();
    const handle = await openDatabase({ databaseUrl: app.databaseUrl, poolSize: 2 });
    try {
      return { app, seeded: await seedWithSetupDone(handle.db, seed) };
    } finally {
      await handle.close();
    }
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'nhr-e2e-seed-'));
  const handle = await openDatabase({ dataDir });
  let seeded: T;
  try {
    await handle.migrate();
    seeded = await seedWithSetupDone(handle.db, seed);
  } finally {
    await handle.close();
  }
  const app = await startApp({ DATA_DIR: dataDir });
  return {
    app: {
      ...app,
      async stop() {
        const code = await app.stop();
        rmSync(dataDir, { recursive: true, force: true });
        return code;
      },
    },
    seeded,
  };
}
