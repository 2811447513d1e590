// The code look-up of issue 22 (budget: p95 <= 20 ms at the server for a 3-letter prefix): GET /api/codes over HTTP
// with a signed-in doctor's session, for many 3-letter prefixes of each catalogue (word starts of the displays and
// synonyms, and code prefixes), one request at a time on a keep-alive connection. The round trip on loopback is
// measured, an upper bound of the server's time. On PostgreSQL (DATABASE_URL) the server runs as `npm start` runs it,
// in its own WORKERS processes (default 1: the benchmark sends one request at a time); without it, or with
// SERVER=inline, the app runs in this process on embedded PGlite.
// Usage: npm run bench -- codes [--prefixes N] [--rounds R]    (N prefixes per kind, default 80; R rounds, default 5)
// A measurement to report, not a test: it prints whether the budget was met and writes JSON to bench/results/.
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { CODE_KINDS, type CodeKind, type CodesAnswer } from '../src/contracts/codes';
import { buildApp } from '../src/server/app';
import { readCatalogue } from '../src/server/modules/codes/catalogue-files';
import { foldCode, wordsOf } from '../src/server/modules/codes/code-index';
import { createStaffUser } from '../src/server/test/staff';
import { testConfig } from '../src/server/test/test-app';
import { createBenchDatabase, percentile } from './bench-database';
import { signInOverHttp, startServerProcess } from './search/server-process';

const BUDGET_P95_MS = 20;
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const PREFIXES = arg('prefixes', 80);
const ROUNDS = arg('rounds', 5);
const WORKERS = Number(process.env.WORKERS ?? 1);
const INLINE = process.env.SERVER === 'inline' || !process.env.DATABASE_URL;

/** Up to `n` distinct 3-character prefixes of a catalogue: word starts of its names and code starts, spread evenly. */
function prefixesOf(kind: CodeKind, n: number): string[] {
  const all = new Set<string>();
  for (const { entry } of readCatalogue(kind)) {
    for (const word of [entry.display, ...entry.synonyms].flatMap(wordsOf))
      if (word.length >= 3 && /^\p{L}/u.test(word)) all.add(word.slice(0, 3));
    const code = foldCode(entry.code);
    if (code.length >= 3) all.add(code.slice(0, 3));
  }
  const sorted = [...all].sort();
  const step = Math.max(1, sorted.length / n);
  return Array.from({ length: Math.min(n, sorted.length) }, (_, i) => sorted[Math.floor(i * step)]!);
}

interface Stats {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  meanResults: number;
}
const stats = (samples: number[], results: number[]): Stats => {
  const s = [...samples].sort((a, b) => a - b);
  const round = (x: number): number => Math.round(x * 100) / 100;
  return {
    n: s.length,
    p50: round(percentile(s, 50)),
    p95: round(percentile(s, 95)),
    p99: round(percentile(s, 99)),
    meanResults: round(results.reduce((a, b) => a + b, 0) / Math.max(1, results.length)),
  };
};

const loadBefore = loadavg()[0]!;
const startedAt = new Date().toISOString();
const database = await createBenchDatabase({ poolSize: 4 });
const db = database.handle.db;
const doctor = await createStaffUser(db, { roleId: 3, lastName: 'Bench' });
let stopServer: () => Promise<void>;
let port: number;
if (INLINE) {
  const app = await buildApp({ db, config: testConfig(), logger: false });
  port = Number(new URL(await app.listen({ host: '127.0.0.1', port: 0 })).port);
  stopServer = () => app.close();
} else {
  const server = await startServerProcess(database.url!, WORKERS);
  port = server.port;
  stopServer = server.stop;
}

try {
  const cookie = await signInOverHttp(port, doctor.email, doctor.password);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const lookUp = (kind: CodeKind, q: string): Promise<CodesAnswer> =>
    new Promise((resolve, reject) => {
      const path = `/api/codes?kind=${kind}&q=${encodeURIComponent(q)}`;
      const req = http.request({ agent, host: '127.0.0.1', port, method: 'GET', path, headers: { cookie } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) reject(new Error(`GET ${path} answered ${res.statusCode}: ${text.slice(0, 300)}`));
          else resolve(JSON.parse(text) as CodesAnswer);
        });
      });
      req.on('error', reject);
      req.end();
    });

  const prefixes = Object.fromEntries(CODE_KINDS.map((kind) => [kind, prefixesOf(kind, PREFIXES)])) as Record<CodeKind, string[]>;
  // Warm-up: the first look-up of each kind reads its catalogue (once per server process); then the JIT.
  for (const kind of CODE_KINDS) for (const q of prefixes[kind].slice(0, 20)) await lookUp(kind, q);

  const samples = Object.fromEntries(CODE_KINDS.map((k) => [k, [] as number[]])) as Record<CodeKind, number[]>;
  const counts = Object.fromEntries(CODE_KINDS.map((k) => [k, [] as number[]])) as Record<CodeKind, number[]>;
  for (let round = 0; round < ROUNDS; round++) {
    // Kinds interleaved, so a slow moment of the machine is not pinned on one kind.
    const longest = Math.max(...CODE_KINDS.map((k) => prefixes[k].length));
    for (let i = 0; i < longest; i++) {
      for (const kind of CODE_KINDS) {
        const q = prefixes[kind][i];
        if (q === undefined) continue;
        const start = performance.now();
        const answer = await lookUp(kind, q);
        samples[kind].push(performance.now() - start);
        counts[kind].push(answer.results.length);
      }
    }
  }
  agent.destroy();

  const perKind = Object.fromEntries(CODE_KINDS.map((k) => [k, { prefixes: prefixes[k].length, ...stats(samples[k], counts[k]) }]));
  const overall = stats(
    CODE_KINDS.flatMap((k) => samples[k]),
    CODE_KINDS.flatMap((k) => counts[k]),
  );
  const met = overall.p95 <= BUDGET_P95_MS && CODE_KINDS.every((k) => (perKind[k]?.p95 ?? Infinity) <= BUDGET_P95_MS);
  const loadAfter = loadavg()[0]!;
  const report = {
    benchmark: 'codes',
    startedAt,
    node: process.version,
    database: database.handle.kind,
    server: INLINE ? 'inline' : `${WORKERS} worker process(es)`,
    rounds: ROUNDS,
    budget: { p95Ms: BUDGET_P95_MS, met },
    perKind,
    overall,
    loadAverage: { before: Math.round(loadBefore * 100) / 100, after: Math.round(loadAfter * 100) / 100 },
  };

  console.log(`GET /api/codes, 3-letter prefixes, 1 connection, ${report.database}, server ${report.server}, ${ROUNDS} rounds`);
  console.log(
    `${'kind'.padEnd(12)} ${'prefixes'.padStart(8)} ${'n'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'results'.padStart(8)}`,
  );
  const row = (name: string, p: number | string, s: Stats): string =>
    `${name.padEnd(12)} ${String(p).padStart(8)} ${String(s.n).padStart(6)} ${s.p50.toFixed(2).padStart(8)} ${s.p95.toFixed(2).padStart(8)} ${s.p99.toFixed(2).padStart(8)} ${s.meanResults.toFixed(1).padStart(8)}`;
  for (const kind of CODE_KINDS) console.log(row(kind, prefixes[kind].length, perKind[kind] as unknown as Stats));
  console.log(row('overall', '', overall));
  console.log(
    `budget p95 <= ${BUDGET_P95_MS} ms: ${met ? 'met' : 'MISSED'}; load average (1 min) ${report.loadAverage.before} before, ${report.loadAverage.after} after`,
  );

  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = `${dir}codes-${report.database}-${startedAt.replace(/[:.]/g, '-')}.json`;
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${dir}codes-latest.json`, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`written to ${file}`);
} finally {
  await stopServer();
  await database.dispose();
}
