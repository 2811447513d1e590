// npm run bench -- search [--database-url URL] [--per-category N] [--seed S] [--repeat R] [--concurrency 1,16]
//                         [--no-http] [--baseline] [--server process|inline] [--workers N]
// The search benchmark: the fixed targets run through the same repository SQL the API uses, straight on the
// database (raw SQL), as that search plus its SEARCH audit row in one transaction (raw search+audit: the
// reference issue 11 sets), and through the real app over HTTP with a signed-in session (http-driver.ts, on by
// default; on PostgreSQL the server runs as `npm start` runs it, in its own WORKERS processes), at each
// concurrency; then the ratios HTTP / raw search+audit and HTTP / raw SQL of p50 and p95 per group, and the budgets.
import { vacuumRewrittenTables } from '../bench-database';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { todayIso } from '../../src/contracts/calendar';
import { loadConfig } from '../../src/server/config';
import { openDatabase, type Db } from '../../src/server/db/client';
import { searchPatients } from '../../src/server/modules/patients/search.service';
import { withAudit } from '../../src/server/audit/audit-writer';
import { searchAuditSummary } from '../../src/server/modules/patients/search.service';
import { startHttpSearchServer, startProcessSearchServer, type HttpSearchServer } from './http-driver';
import { budgetLines } from './budgets';
import { BASELINE_INDEX, baselineIndexExists, trigramBaselineDriver } from './baseline-trigram';
import { GROUPS, runTargets, summarize, type Sample, type SearchDriver } from './measure';
import { compareRuns, formatTable, writeReport, type RunReport } from './report';
import { buildTargets, CATEGORIES, type Target } from './targets';
import { cpuSampler } from '../load/proc-cpu';

export function rawSqlDriver(db: Db, today: string): SearchDriver {
  return { name: 'raw SQL', search: (target: Target) => searchPatients(db, target.input, { today }) };
}

/** The reference: the same search and its SEARCH audit row (as the API writes it) in one transaction. */
export function rawAuditedDriver(db: Db, today: string): SearchDriver {
  const meta = { ip: '127.0.0.1', userAgent: 'bench', sessionHash: null };
  const actor = { userId: 'bench-raw', userName: 'Bench Raw', facility: null };
  return {
    name: 'raw search+audit',
    search: (target: Target) =>
      withAudit(
        db,
        (tx) => searchPatients(tx, target.input, { today }),
        (results) => ({
          actor,
          meta,
          action: 'SEARCH',
          resourceType: 'PATIENT',
          patientId: results.length === 1 ? results[0]!.id : null,
          newValues: {
            ...searchAuditSummary(target.input, results),
            patientIds: results.map((p) => p.id),
            role: { id: 3, name: 'Doctor' },
          },
        }),
      ),
  };
}

/** Unmeasured seconds of HTTP searches before the measured runs (see the warm-up below). */
const WARM_SECONDS = Number(process.env.WARM_SECONDS ?? 20);
/** Unmeasured seconds of each driver's exact searches before its measured ones, at each level. */
const WARM_EACH_SECONDS = Number(process.env.WARM_EACH_SECONDS ?? 5);

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
      server: { type: 'string', default: 'process' },
      workers: { type: 'string', default: String(availableParallelism()) },
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
    await vacuumRewrittenTables(handle);
    const today = todayIso();
    const [{ n } = { n: 0 }] = (
      (await handle.db.execute(sql`SELECT count(*)::int AS n FROM patients`)) as unknown as { rows: { n: number }[] }
    ).rows;
    process.stderr.write(`Drawing ${perCategory} targets per category from ${n.toLocaleString('en')} patients...\n`);
    const targets = await buildTargets(handle.db, { perCategory, seed, today });
    const driver = rawSqlDriver(handle.db, today);
    process.stderr.write(`Warming up with ${targets.length} queries...\n`);
    await runTargets(driver, targets, 1, 1);

    if (withHttp) {
      // The app gets its own pool, as in production: raw SQL and HTTP never wait on each other's connections.
      if (databaseUrl && values.server === 'process') {
        process.stderr.write(`Starting the server as npm start does, WORKERS=${values.workers}...\n`);
        server = await startProcessSearchServer(handle.db, databaseUrl, Number(values.workers), maxConcurrency);
      } else {
        appHandle = databaseUrl ? await openDatabase({ databaseUrl, poolSize: maxConcurrency + 2 }) : handle;
        server = await startHttpSearchServer(appHandle.db, maxConcurrency);
      }
      // Every worker warm, as a server that has run for a while is: over several connections (the primary hands
      // each new connection to the next worker), so V8 has optimised the request path in both workers; a
      // single-connection warm-up left the other worker cold, and the measured connection may land on it.
      // For WARM_SECONDS (default 20): the workers' CPU per search falls for the first 10,000-15,000 requests while V8
      // optimises the request path (1.45 ms in the first 3,200 searches at 16 doctors, 0.79 in the third batch, then
      // 0.55-0.65; decision 063), and a warm-up of 3,000 requests measured that fall, not the server.
      // At the highest measured concurrency too: the workers' pools then hold as many connections as the run uses,
      // each with its statements prepared, as in a server that has served that many clinicians; otherwise the first
      // level at 16 connections paid for opening connections and planning the hot statements on each (about half a
      // millisecond of PostgreSQL's CPU and of the server's per search, decision 060) and the next level did not.
      const warmConnections = Math.max(2 * Math.max(1, Number(values.workers)), maxConcurrency);
      const warm = server.driver(warmConnections);
      const exactTargets = targets.filter((t) => t.input.method !== 'fuzzy-name');
      const mixed = targets.filter((_, i) => i % Math.max(1, Math.floor(targets.length / 300)) === 0).slice(0, 300);
      process.stderr.write(`Warming up HTTP for ${WARM_SECONDS} s over ${warmConnections} connections...\n`);
      const warmUntil = performance.now() + WARM_SECONDS * 1000;
      await runTargets(warm, mixed, warmConnections, 1);
      while (performance.now() < warmUntil) await runTargets(warm, exactTargets, warmConnections, 1);
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
      server: 'none',
    };
    // Each driver per concurrency level (the HTTP one gets an agent with that many keep-alive sockets).
    const audited = rawAuditedDriver(handle.db, today);
    const drivers: [(concurrency: number) => (SearchDriver & { close?(): void }) | null, Target[]][] = [
      [() => driver, targets],
      [() => audited, targets],
    ];
    // Over HTTP: a doctor per connection, and (beyond one connection) one doctor on every connection.
    if (server) drivers.push([(c) => server!.driver(c), targets], [(c) => (c > 1 ? server!.driver(c, true) : null), targets]);
    if (values.baseline) {
      if (await baselineIndexExists(handle.db))
        drivers.push([() => trigramBaselineDriver(handle.db, today), targets.filter((t) => t.input.method === 'fuzzy-name')]);
      else process.stderr.write(`--baseline needs the index ${BASELINE_INDEX} (see bench/search/baseline-trigram.ts); skipped.\n`);
    }
    for (const concurrency of levels) {
      if (handle.kind === 'pglite' && concurrency > 1) continue; // one embedded connection: concurrency only queues
      for (const [makeDriver, set] of drivers) {
        const d = makeDriver(concurrency);
        if (!d) continue;
        // Exact and fuzzy searches run apart: each load is measured on its own, as the budgets state them.
        const samples: Sample[] = [];
        const throughput: Record<string, number> = {};
        let cpuPerExactMs: { server: number; postgres: number } | undefined;
        for (const [kind, part] of [
          ['exact', set.filter((t) => t.input.method !== 'fuzzy-name')],
          ['fuzzy', set.filter((t) => t.input.method === 'fuzzy-name')],
        ] as const) {
          if (part.length === 0) continue;
          // Every driver's exact searches first run unmeasured for WARM_EACH_SECONDS at this concurrency: the runs
          // before it (the fuzzy searches above all, at 16 connections) leave PostgreSQL's buffers holding other pages,
          // and a driver measured straight after them measured that (decision 063). The same for every driver.
          if (kind === 'exact') {
            const until = performance.now() + WARM_EACH_SECONDS * 1000;
            while (performance.now() < until) await runTargets(d, part, concurrency, 1);
          }
          process.stderr.write(`${d.name}: ${part.length} x ${repeat} ${kind} queries at ${concurrency} connection(s)...\n`);
          const started = performance.now();
          // The server's own processes' CPU time over the exact searches (from /proc), per search.
          const cpu = kind === 'exact' && d.name.startsWith('HTTP') && server?.pid ? cpuSampler(server.pid) : null;
          samples.push(...(await runTargets(d, part, concurrency, repeat)));
          throughput[kind] = Math.round((part.length * repeat * 1000) / (performance.now() - started));
          if (cpu) {
            const used = cpu.stop();
            const n = part.length * repeat;
            cpuPerExactMs = { server: round3(used.serverMs / n), postgres: round3(used.postgresMs / n) };
          }
        }
        const groups = [
          ...Object.entries(GROUPS).map(([name, inGroup]) =>
            summarize(
              name,
              samples.filter((s) => inGroup(s.target.category)),
              concurrency,
              name.startsWith('fuzzy'),
            ),
          ),
          ...CATEGORIES.map((c) =>
            summarize(
              c,
              samples.filter((s) => s.target.category === c),
              concurrency,
              c.startsWith('fuzzy'),
            ),
          ),
        ].filter((g) => g.queries > 0);
        d.close?.();
        report.runs.push({ driver: d.name, concurrency, throughput, groups, ...(cpuPerExactMs ? { cpuPerExactMs } : {}) });
      }
    }
    report.loadAverage.after = round2(loadavg()[0]!);
    report.server = server ? (databaseUrl && values.server === 'process' ? `npm start, WORKERS=${values.workers}` : 'inline') : 'none';
    report.comparisons = [...compareRuns(report, 'HTTP', 'raw search+audit'), ...compareRuns(report, 'HTTP', 'raw SQL')];
    console.log(formatTable(report));
    console.log(budgetLines(report).join('\n'));
    process.stderr.write(`\nWritten to ${writeReport(report)}\n`);
  } finally {
    await server?.close();
    if (appHandle && appHandle !== handle) await appHandle.close();
    await handle.close();
  }
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
const round3 = (x: number): number => Math.round(x * 1000) / 1000;
