// Prints the benchmark as a table and writes it as JSON under bench/results/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { GroupStats } from './measure';

export interface RunReport {
  benchmark: 'search';
  startedAt: string;
  database: { kind: string; patients: number };
  targets: { perCategory: number; seed: number; total: number };
  repeat: number;
  /** One entry per driver and concurrency: raw SQL now, HTTP next to it later. */
  runs: {
    driver: string;
    concurrency: number;
    /** Requests per second over the wall-clock time of the exact run and of the fuzzy run. */
    throughput: Record<string, number>;
    groups: GroupStats[];
  }[];
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
    const rates = Object.entries(run.throughput).map(([k, v]) => `${k} ${v} req/s`).join(', ');
    lines.push(`\n${run.driver}, ${run.concurrency} connection(s), ${report.database.patients.toLocaleString('en')} patients on ${report.database.kind} (${rates})`);
    const cells = [COLUMNS.map(([h]) => h), ...run.groups.map((g) => COLUMNS.map(([, f]) => f(g)))];
    const widths = COLUMNS.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
    const row = (r: string[]) => `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
    lines.push(row(cells[0]!), `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
    for (const r of cells.slice(1)) lines.push(row(r));
  }
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
