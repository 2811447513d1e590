// A throw-away database for a benchmark: a uniquely named PostgreSQL database when DATABASE_URL is set
// (dropped afterwards unless keep), else in-memory PGlite. Migrated.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../src/server/db/client';
import { createScratchDatabase } from '../src/server/db/scratch-database';

export interface BenchDatabase {
  handle: DatabaseHandle;
  url: string | undefined;
  dispose(): Promise<void>;
}

export async function createBenchDatabase(options: { poolSize?: number; keep?: boolean } = {}): Promise<BenchDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const handle = await openDatabase({ dataDir: 'memory://' });
    await handle.migrate();
    return { handle, url: undefined, dispose: () => handle.close() };
  }
  const scratch = await createScratchDatabase(serverUrl, 'nhr_bench');
  const handle = await openDatabase({ databaseUrl: scratch.url, poolSize: options.poolSize ?? 10 });
  await handle.migrate();
  return {
    handle,
    url: scratch.url,
    async dispose() {
      await handle.close();
      if (options.keep) console.log(`kept database ${scratch.name}`);
      else await scratch.drop();
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

/**
 * The tables every audited request rewrites (the audit chains' heads, the rate-limit counters, sessions and their
 * sign-ins, the volume checks' rows), vacuumed before a load or search benchmark on a seeded database, as autovacuum
 * keeps them in production (this machine's PostgreSQL runs with autovacuum off). Unvacuumed, they grow with every
 * run: audit_chain_head went from 80 kB to 1.7 MB of dead versions over a day of benchmarks, and PostgreSQL's CPU per
 * request at one connection from 1.3 to 2.2 ms (decision 063).
 */
export const REWRITTEN_TABLES = [
  'audit_chain_head',
  'rate_limit_counts',
  'sessions',
  'user_sessions',
  'session_reauth',
  'security_events',
  'search_volume',
] as const;

export async function vacuumRewrittenTables(handle: DatabaseHandle): Promise<void> {
  if (handle.kind !== 'postgres') return;
  for (const table of REWRITTEN_TABLES) await handle.db.execute(sql.raw(`VACUUM (ANALYZE) ${table}`));
}
