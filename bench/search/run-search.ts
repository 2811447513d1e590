// npm run bench -- search [--database-url URL] [--per-category N] [--seed S] [--repeat R] [--concurrency 1,16]
//                         [--no-http] [--baseline]
// The search benchmark: the fixed targets run through the same repository SQL the API uses, straight on the
// database (raw SQL), and through the real app over HTTP with a signed-in session (http-driver.ts, on by default),
// at each concurrency; then the ratio HTTP/raw SQL of p50 and p95 per group.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { todayIso } from '../../src/contracts/ages';
import { loadConfig } from '../../src/server/config';
import { openDatabase, type Db } from '../../src/server/db/client';
import { searchPatients } from '../../src/server/modules/patients/search.service';
import { startHttpSearchServer, type HttpSearchServer } from './http-driver';
import { BASELINE_INDEX, baselineIndexExists, trigramBaselineDriver } from './baseline-trigram';
import { GROUPS, runTargets, summarize, type Sample, type SearchDriver } from './measure';
import { compareRuns, formatTable, writeReport, type RunReport } from './report';
import { buildTargets, CATEGORIES, type Target } from './targets';

export function rawSqlDriver(db: Db, today: string): SearchDriver {
  return { name: 'raw SQL', search: (target: Target) => searchPatients(db, target.input, { today }) };
}

export async function runSearchBenchmark(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'database-url': { type: 'string' },
      'per-category': { type: 'string', default: '100' },
      seed: { type: 'string', default: '7' },
      repeat: { type: 'string', default: '3' },
      concurrency: { type: 'string', default: '1,16' },
      baseline: { type: 'boolean', default: false },
      http: { type: 'boolean', default: true },
      'no-http': { type: 'boolean', default: false },
    },
  });
  const perCategory = Number(values['per-category']);
  const seed = Number(values.seed);
  const repeat = Number(values.repeat);
  const levels = values.concurrency.split(',').map(Number);
  const config = loadConfig();
  const databaseUrl = values['database-url'] ?? config.databaseUrl;
  const maxConcurrency = Math.max(...levels);
  const withHttp = values.http && !values['no-http'];
  const handle = await openDatabase(databaseUrl ? { databaseUrl, poolSize: maxConcurrency } : { dataDir: config.dataDir });
  let server: HttpSearchServer | undefined;
  let appHandle: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    await handle.migrate();
    const today = todayIso();
    const [{ n } = { n: 0 }] = ((await handle.db.execute(sql`SELECT count(*)::int AS n FROM patients`)) as unknown as { rows: { n: number }[] }).rows;
    process.stderr.write(`Drawing ${perCategory} targets per category from ${n.toLocaleString('en')} patients...\n`);
    const targets = await buildTargets(handle.db, { perCategory, seed, today });
    const driver = rawSqlDriver(handle.db, today);
    process.stderr.write(`Warming up with ${targets.length} queries...\n`);
    await runTargets(driver, targets, 1, 1);

    if (withHttp) {
      // The app gets its own pool, as in production: raw SQL and HTTP never wait on each other's connections.
      appHandle = databaseUrl ? await openDatabase({ databaseUrl, poolSize: maxConcurrency + 2 }) : handle;
      server = await startHttpSearchServer(appHandle.db);
      const warm = server.driver(1);
      process.stderr.write(`Warming up HTTP with ${Math.min(300, targets.length)} requests...\n`);
      await runTargets(warm, targets.filter((_, i) => i % Math.max(1, Math.floor(targets.length / 300)) === 0).slice(0, 300), 1, 1);
      warm.close();
    }

    const report: RunReport = {
      benchmark: 'search',
      startedAt: new Date().toISOString(),
      node: process.version,
      loadAverage: { before: round2(loadavg()[0]!), after: 0 },
      database: { kind: handle.kind, patients: n },
      targets: { perCategory, seed, total: targets.length },
      repeat,
      runs: [],
      comparisons: [],
    };
    // Each driver per concurrency level (the HTTP one gets an agent with that many keep-alive sockets).
    const drivers: [(concurrency: number) => SearchDriver & { close?(): void }, Target[]][] = [[() => driver, targets]];
    if (server) drivers.push([(c) => server!.driver(c), targets]);
    if (values.baseline) {
      if (await baselineIndexExists(handle.db)) drivers.push([() => trigramBaselineDriver(handle.db, today), targets.filter((t) => t.input.method === 'fuzzy-name')]);
      else process.stderr.write(`--baseline needs the index ${BASELINE_INDEX} (see bench/search/baseline-trigram.ts); skipped.\n`);
    }
    for (const concurrency of levels) {
      if (handle.kind === 'pglite' && concurrency > 1) continue; // one embedded connection: concurrency only queues
      for (const [makeDriver, set] of drivers) {
        const d = makeDriver(concurrency);
        // Exact and fuzzy searches run apart: each load is measured on its own, as the budgets state them.
        const samples: Sample[] = [];
        const throughput: Record<string, number> = {};
        for (const [kind, part] of [
          ['exact', set.filter((t) => t.input.method !== 'fuzzy-name')],
          ['fuzzy', set.filter((t) => t.input.method === 'fuzzy-name')],
        ] as const) {
          if (part.length === 0) continue;
          process.stderr.write(`${d.name}: ${part.length} x ${repeat} ${kind} queries at ${concurrency} connection(s)...\n`);
          const started = performance.now();
          samples.push(...(await runTargets(d, part, concurrency, repeat)));
          throughput[kind] = Math.round((part.length * repeat * 1000) / (performance.now() - started));
        }
        const groups = [
          ...Object.entries(GROUPS).map(([name, inGroup]) =>
            summarize(name, samples.filter((s) => inGroup(s.target.category)), concurrency, name.startsWith('fuzzy')),
          ),
          ...CATEGORIES.map((c) => summarize(c, samples.filter((s) => s.target.category === c), concurrency, c.startsWith('fuzzy'))),
        ].filter((g) => g.queries > 0);
        d.close?.();
        report.runs.push({ driver: d.name, concurrency, throughput, groups });
      }
    }
    report.loadAverage.after = round2(loadavg()[0]!);
    report.comparisons = compareRuns(report, 'HTTP', 'raw SQL');
    console.log(formatTable(report));
    process.stderr.write(`\nWritten to ${writeReport(report)}\n`);
  } finally {
    await server?.close();
    if (appHandle && appHandle !== handle) await appHandle.close();
    await handle.close();
  }
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
