// A throw-away database for a benchmark: a uniquely named PostgreSQL database when DATABASE_URL is set
// (dropped afterwards unless keep), else in-memory PGlite. Migrated.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../src/server/db/client';

export interface BenchDatabase {
  handle: DatabaseHandle;
  url: string | undefined;
  dispose(): Promise<void>;
}

async function admin(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase(options: { poolSize?: number; keep?: boolean } = {}): Promise<BenchDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const handle = await openDatabase({ dataDir: 'memory://' });
    await handle.migrate();
    return { handle, url: undefined, dispose: () => handle.close() };
  }
  const name = `nhr_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: options.poolSize ?? 10 });
  await handle.migrate();
  return {
    handle,
    url: url.toString(),
    async dispose() {
      await handle.close();
      if (options.keep) console.log(`kept database ${name}`);
      else await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** True when this module is the script node was started with. */
export const isMain = (metaUrl: string): boolean =>
  process.argv[1] !== undefined && metaUrl === pathToFileURL(path.resolve(process.argv[1])).href;
