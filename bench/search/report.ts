// Prints the benchmark as a table and writes it as JSON under bench/results/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { GroupStats } from './measure';

export interface RunReport {
  benchmark: 'search';
  startedAt: string;
  node: string;
  /** One-minute load average of the machine before and after the measurements (the machine is shared). */
  loadAverage: { before: number; after: number };
  database: { kind: string; patients: number };
  /** How the HTTP server ran: `npm start, WORKERS=n` (own processes), `inline` (this process) or `none`. */
  server?: string;
  targets: { perCategory: number; seed: number; total: number };
  repeat: number;
  /** One entry per driver and concurrency: raw SQL, HTTP (and the trigram baseline with --baseline). */
  runs: {
    driver: string;
    concurrency: number;
    /** Requests per second over the wall-clock time of the exact run and of the fuzzy run. */
    throughput: Record<string, number>;
    groups: GroupStats[];
    /** HTTP with the server in its own processes: CPU time per exact search of the server's processes and of PostgreSQL. */
    cpuPerExactMs?: { server: number; postgres: number };
  }[];
  /** HTTP over raw SQL, per concurrency and group: what the API adds on top of the query. */
  comparisons: Comparison[];
}

export interface Comparison {
  /** The raw driver HTTP is compared with. */
  reference: string;
  concurrency: number;
  group: string;
  p50: { http: number; raw: number; ratio: number };
  p95: { http: number; raw: number; ratio: number };
  requestsPerSecond: { http: number; raw: number };
}

export function compareRuns(report: RunReport, httpDriver: string, rawDriver: string): Comparison[] {
  const out: Comparison[] = [];
  for (const http of report.runs.filter((r) => r.driver === httpDriver)) {
    const raw = report.runs.find((r) => r.driver === rawDriver && r.concurrency === http.concurrency);
    if (!raw) continue;
    for (const h of http.groups) {
      const r = raw.groups.find((g) => g.group === h.group);
      if (!r) continue;
      const ratio = (a: number, b: number): number => (b > 0 ? Math.round((a / b) * 100) / 100 : 0);
      out.push({
        reference: rawDriver,
        concurrency: http.concurrency,
        group: h.group,
        p50: { http: h.p50, raw: r.p50, ratio: ratio(h.p50, r.p50) },
        p95: { http: h.p95, raw: r.p95, ratio: ratio(h.p95, r.p95) },
        requestsPerSecond: { http: h.requestsPerSecond, raw: r.requestsPerSecond },
      });
    }
  }
  return out;
}

const COMPARISON_COLUMNS: [string, (c: Comparison) => string][] = [
  ['reference', (c) => c.reference],
  ['group', (c) => c.group],
  ['conn', (c) => String(c.concurrency)],
  ['raw p50', (c) => c.p50.raw.toFixed(2)],
  ['HTTP p50', (c) => c.p50.http.toFixed(2)],
  ['p50 ratio', (c) => `${c.p50.ratio.toFixed(2)}x`],
  ['raw p95', (c) => c.p95.raw.toFixed(2)],
  ['HTTP p95', (c) => c.p95.http.toFixed(2)],
  ['p95 ratio', (c) => `${c.p95.ratio.toFixed(2)}x`],
  ['raw req/s', (c) => String(c.requestsPerSecond.raw)],
  ['HTTP req/s', (c) => String(c.requestsPerSecond.http)],
];

function markdownTable<T>(columns: [string, (x: T) => string][], rows: readonly T[]): string[] {
  const cells = [columns.map(([h]) => h), ...rows.map((x) => columns.map(([, f]) => f(x)))];
  const widths = columns.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const row = (r: string[]) => `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [
    row(cells[0]!),
    `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...cells.slice(1).map(row),
  ];
}

const COLUMNS: [string, (g: GroupStats) => string][] = [
  ['group', (g) => g.group],
  ['n', (g) => String(g.queries)],
  ['p50 ms', (g) => g.p50.toFixed(2)],
  ['p95 ms', (g) => g.p95.toFixed(2)],
  ['p99 ms', (g) => g.p99.toFixed(2)],
  ['req/s', (g) => String(g.requestsPerSecond)],
  ['recall@1', (g) => (g.recallAt1 === undefined ? '' : g.recallAt1.toFixed(3))],
  ['recall@10', (g) => (g.recallAt10 === undefined ? '' : g.recallAt10.toFixed(3))],
  ['recall@20', (g) => (g.recallAt20 === undefined ? '' : g.recallAt20.toFixed(3))],
  ['correct', (g) => (g.correct === undefined ? '' : g.correct.toFixed(3))],
];

export function formatTable(report: RunReport): string {
  const lines: string[] = [];
  for (const run of report.runs) {
    const rates = Object.entries(run.throughput)
      .map(([k, v]) => `${k} ${v} req/s`)
      .join(', ');
    const cpu = run.cpuPerExactMs
      ? `; CPU per exact search: server ${run.cpuPerExactMs.server} ms, PostgreSQL ${run.cpuPerExactMs.postgres} ms`
      : '';
    lines.push(
      `\n${run.driver}, ${run.concurrency} connection(s), ${report.database.patients.toLocaleString('en')} patients on ${report.database.kind} (${rates}${cpu})`,
    );
    lines.push(...markdownTable(COLUMNS, run.groups));
  }
  if (report.comparisons.length > 0) {
    lines.push(`\nHTTP (server: ${report.server ?? 'inline'}) / raw reference (latency in ms; req/s by concurrency / mean latency)`);
    lines.push(...markdownTable(COMPARISON_COLUMNS, report.comparisons));
  }
  lines.push(`\nnode ${report.node}, load average (1 min) ${report.loadAverage.before} before, ${report.loadAverage.after} after`);
  return lines.join('\n');
}

export function writeReport(report: RunReport): string {
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, '-');
  const file = `${dir}search-${report.database.kind}-${report.database.patients}-${stamp}.json`;
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${dir}search-latest.json`, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
