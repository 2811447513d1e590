// npm run match [-- --database-url URL]: the registry-wide duplicate matcher in the foreground with a progress bar
// (issue 24 item 1, decision 046). Starts a run, or resumes the current one where it stopped (a run a server is
// working on is left to it). Ctrl-C pauses it after the chunk in progress; run the command again to resume. With
// DATABASE_READ_URL the chunks are read on the standby (decision 058); the pairs and checkpoints are written here.
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { DataDirInUseError } from '../src/server/db/data-dir-lock';
import { openReadPool, readDbOf } from '../src/server/db/read-db';
import { claimRun, runScan } from '../src/server/modules/duplicates/scan-job';
import { formatSeconds, ProgressBar } from '../bench/seed/progress';

const { values } = parseArgs({ options: { 'database-url': { type: 'string' } } });
const config = loadConfig();
const databaseUrl = values['database-url'] ?? config.databaseUrl;
const handle = await openDatabase(databaseUrl ? { databaseUrl, poolSize: 2 } : { dataDir: config.dataDir }).catch((err: unknown) => {
  console.error(`match: ${err instanceof DataDirInUseError ? err.message : `cannot open the database: ${(err as Error).message}`}`);
  process.exit(1);
});
const readPool = config.databaseReadUrl && handle.kind === 'postgres' ? openReadPool(config.databaseReadUrl, { poolSize: 2 }) : undefined;
const abort = new AbortController();
process.once('SIGINT', () => abort.abort());
try {
  await handle.migrate();
  const owner = `cli-${process.pid}`;
  const run = await claimRun(handle.db, owner, null, new Date());
  if (!run) {
    console.error('match: another process is running the matcher now; see GET /api/duplicates/scan');
    process.exitCode = 1;
  } else {
    const resumed = run.done > 0;
    const bar = new ProgressBar(run.total, resumed ? `match (resumed at ${run.done.toLocaleString('en')})` : 'match');
    const t0 = performance.now();
    const outcome = await runScan(handle.db, run, owner, {
      thresholds: config.match,
      now: () => new Date(),
      signal: abort.signal,
      onProgress: (s) => bar.update(s.done),
      reads: readDbOf(handle.db, readPool?.db, (message) => console.error(`match: ${message}`)),
    });
    bar.done(
      `Matcher ${outcome} after ${formatSeconds((performance.now() - t0) / 1000)} (thresholds: very likely >= ${config.match.veryLikely}, possible >= ${config.match.possible})`,
    );
  }
} finally {
  await readPool?.close();
  await handle.close();
}
