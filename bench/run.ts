// npm run bench -- <benchmark> [options]: one command for every benchmark (DESIGN.md §10). Without a name it lists
// them. Set DATABASE_URL to measure on PostgreSQL (the budgets are stated for PostgreSQL at 3,000,000 patients);
// without it the benchmarks use embedded PGlite. Results are printed and written as JSON to bench/results/.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runClientSizeBenchmark } from './client-size';
import { runSearchBenchmark } from './search/run-search';

/** Runs a benchmark script that is built to run as main, in its own node process with this terminal. */
function script(file: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(file, import.meta.url)), ...args], {
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${file} exited with ${signal ?? code}`))));
  });
}

interface Benchmark {
  summary: string;
  run(argv: string[]): Promise<void>;
}

const BENCHMARKS: Record<string, Benchmark> = {
  search: {
    summary:
      'patient search on the database: fixed targets with known answers, raw SQL and HTTP (signed-in session, audit row) at 1 and 16 connections; p50/p95/p99, req/s, recall@1/@10, HTTP/raw ratio [--no-http --per-category N --repeat R --concurrency 1,16 --baseline]',
    run: runSearchBenchmark,
  },
  records: {
    summary:
      'opening a patient record over HTTP (grant check, five lists, vital signs, audit row) at 1 and 16 connections in a scratch database it seeds itself [env PATIENTS, WITH_RECORDS, OPENS, CONCURRENCY, GRANTED, SYNC_COMMIT=off]',
    run: (argv) => script('./record-open.ts', argv),
  },
  writes: {
    summary:
      "issue 23's budgets at 1 connection: the floor GET /api/auth/user, an add with a new Idempotency-Key, its replay, an edit with If-Match, a record open and the delta read of a patient with 50 rows (without and with a cursor); median of RUNS runs, load average [env SEEDED_DATABASE_URL, PATIENTS, WITH_RECORDS, SAMPLES, RUNS, GRANTED, WORKERS, SERVER=inline]",
    run: (argv) => script('./record-writes.ts', argv),
  },
  defaulters: {
    summary:
      "issue 25's budget: the defaulter list of one facility GET /api/defaulters over HTTP (a nurse of that facility, 1 connection) against p95 <= 1 s, in a scratch database it seeds itself (children's vaccines at CLINICS clinics, the index written by the server's code) [env PATIENTS, CLINICS, SAMPLES, RUNS, FACILITIES_MEASURED, SEEDED_DATABASE_URL, WORKERS, SERVER=inline]",
    run: (argv) => script('./defaulters.ts', argv),
  },
  codes: {
    summary:
      'code look-up GET /api/codes over HTTP (signed-in doctor, 1 connection) for many 3-letter prefixes of each catalogue: p50/p95/p99 per kind and overall against p95 <= 20 ms [--prefixes N --rounds R; env WORKERS, SERVER=inline]',
    run: (argv) => script('./codes-lookup.ts', argv),
  },
  match: {
    summary:
      'duplicate matcher (issue 24): a full registry-wide run, precision of "very likely" and "possible", recall over both bands and per planted error, one new patient matched (p50/p95/p99) [env PATIENTS, DUPLICATES (share planted), SEEDED_DATABASE_URL, INCREMENTAL]',
    run: (argv) => script('./match.ts', argv),
  },
  load: {
    summary:
      "issue 29's realistic load: USERS signed-in clinicians (default 64), each its own session and connection, a mix (search 55 %, record open 25 %, add 10 %, access grant 5 %, portal 5 %) at LEVELS connections (default 1,16,64) for SECONDS each against npm start, with the raw SQL reference (each operation with its audit append) in the same run; p50/p95/p99 per operation, req/s, errors, CPU per request of the server and PostgreSQL from /proc [env SEEDED_DATABASE_URL or DATABASE_URL with PATIENTS, WITH_RECORDS; USERS, LEVELS, SECONDS, WORKERS]",
    run: (argv) => script('./load/run-load.ts', argv),
  },
  auth: {
    summary: 'staff sign-in (argon2id) and an authenticated GET /api/auth/user over HTTP, sequential [env LOGINS, READS]',
    run: (argv) => script('./auth-latency.ts', argv),
  },
  audit: {
    summary:
      'audit cost: a lookup transaction without and with the audit write (latency, throughput at 16 connections), then chain verification and reports over 1,000,000 rows [audit write|verify [options]]',
    async run(argv) {
      const [part, ...rest] = argv;
      if (part !== 'verify') await script('./audit-write-bench.ts', part === 'write' ? rest : argv);
      if (part !== 'write') await script('./audit-verify-bench.ts', part === 'verify' ? rest : []);
    },
  },
  'audit-partition': {
    summary:
      "issue 28's audit month: one month's partition filled with N chained rows by COPY (default 10,000,000), then the month verified in the database, archived (signed checkpoint, file, detach) and the file verified against its checkpoint; rows/s of each, file size, load average [--rows N --no-archive --keep]",
    run: (argv) => script('./audit-partition.ts', argv),
  },
  'first-load': {
    summary:
      'first visit of /login and /patient-login in Chromium on a throttled link (default 400 kbit/s of 1,024 bits, 150 ms, CPU 4x slower): KB transferred, requests, first contentful paint, usable; median of the runs, load average [--runs N --kbit K --cpu X]',
    run: (argv) => script('./first-load.ts', argv),
  },
  lighthouse: {
    summary:
      'Lighthouse mobile performance of the login, search, record and portal pages (npx lighthouse@12.8.2, not a dependency; CHROME_PATH, default /usr/bin/chromium): score, FCP, LCP, TBT, CLS per run, load average [--runs N --only login,search,record,portal --lighthouse VERSION]',
    run: (argv) => script('./lighthouse-pages.ts', argv),
  },
  client: {
    summary:
      'initial JavaScript of the built client (entry script + modulepreloads of dist/client/index.html), gzip, against the 150 KB budget; builds if missing [--no-build]',
    run: runClientSizeBenchmark,
  },
};

const [name, ...argv] = process.argv.slice(2);
const benchmark = name ? BENCHMARKS[name] : undefined;
if (!benchmark) {
  if (name) console.error(`Unknown benchmark "${name}".\n`);
  console.log('Usage: npm run bench -- <benchmark> [options]   (DATABASE_URL=postgres://... for PostgreSQL; results in bench/results/)\n');
  const width = Math.max(...Object.keys(BENCHMARKS).map((k) => k.length));
  for (const [key, b] of Object.entries(BENCHMARKS)) console.log(`  ${key.padEnd(width)}  ${b.summary}`);
  process.exit(name ? 2 : 0);
}
await benchmark.run(argv);
