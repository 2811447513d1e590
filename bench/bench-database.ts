// A throw-away database for a benchmark: a uniquely named PostgreSQL database when DATABASE_URL is set
// (dropped afterwards unless keep), else in-memory PGlite. Migrated.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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
