// What the tests of the operators' commands (audit:verify, audit:shred, audit:digest) share: a command run as a real
// process, and a real database for it: a new PostgreSQL database when DATABASE_URL is set, else an embedded one in a
// new data folder, which the test opens only between runs (PGlite allows one process per data directory).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openDatabase, type DatabaseHandle } from '../src/server/db/client';
import { createTestDatabase } from '../src/server/test/test-database';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

/** Runs scripts/<name>.ts with `env`; its exit code and what it printed. */
export async function runScript(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], { cwd: root, env });
    return { code: 0, stdout };
  } catch (e) {
    const err = e as { code: number; stdout: string };
    return { code: err.code, stdout: err.stdout };
  }
}

export interface ScriptDatabase {
  /** Runs `fn` on the database (the embedded one is opened for it and closed after). */
  use<T>(fn: (h: DatabaseHandle) => Promise<T>): Promise<T>;
  /** Drops the PostgreSQL database, or removes the embedded one's folder. */
  dispose(): Promise<void>;
}

/**
 * A migrated database for the commands run with `env`: its URL in env.DATABASE_URL on PostgreSQL; else its folder
 * (a new one in the system's temporary directory) in env.DATA_DIR, and env.DATABASE_URL removed.
 */
export async function createScriptDatabase(env: NodeJS.ProcessEnv): Promise<ScriptDatabase> {
  if (process.env.DATABASE_URL) {
    const server = await createTestDatabase();
    env.DATABASE_URL = server.url;
    return { use: (fn) => fn(server.handle), dispose: () => server.dispose() };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'nhr-script-db-'));
  delete env.DATABASE_URL;
  env.DATA_DIR = dataDir;
  const use = async <T>(fn: (h: DatabaseHandle) => Promise<T>): Promise<T> => {
    const handle = await openDatabase({ dataDir });
    try {
      return await fn(handle);
    } finally {
      await handle.close();
    }
  };
  await use((h) => h.migrate());
  return {
    use,
    dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}
