// Issue 11's and issue 29's search budgets, checked against one run's figures (a benchmark reports them; no test asserts speed).
import type { RunReport } from './report';

const REFERENCE = 'raw search+audit';
const EXACT = 'exact (name-dob + NC)';
const FUZZY = 'fuzzy (all)';

export function budgetLines(report: RunReport): string[] {
  const run = (driver: string, concurrency: number) => report.runs.find((r) => r.driver === driver && r.concurrency === concurrency);
  const group = (driver: string, concurrency: number, name: string) => run(driver, concurrency)?.groups.find((g) => g.group === name);
  const lines = ['\nBudgets (issue 11; same run, same database)'];
  const check = (label: string, value: number | undefined, limit: number | undefined, atMost: boolean, unit: string): void => {
    if (value === undefined || limit === undefined) return void lines.push(`- ${label}: not measured`);
    const ok = atMost ? value <= limit : value >= limit;
    lines.push(`- ${label}: ${value.toFixed(2)} ${unit} (${atMost ? '<=' : '>='} ${limit.toFixed(2)}) ${ok ? 'met' : 'MISSED'}`);
  };
  const http1 = group('HTTP', 1, EXACT);
  const ref1 = group(REFERENCE, 1, EXACT);
  check('exact HTTP p50 at 1 connection vs raw search+audit p50 + 1 ms', http1?.p50, ref1 ? ref1.p50 + 1 : undefined, true, 'ms');
  check('exact HTTP p95 at 1 connection', http1?.p95, 4, true, 'ms');
  const http16 = run('HTTP', 16)?.throughput.exact;
  const ref16 = run(REFERENCE, 16)?.throughput.exact;
  check(
    'exact HTTP throughput at 16 connections vs 0.8 x raw search+audit',
    http16,
    ref16 === undefined ? undefined : 0.8 * ref16,
    false,
    'req/s',
  );
  check('fuzzy HTTP p95 at 1 connection', group('HTTP', 1, FUZZY)?.p95, 40, true, 'ms');
  lines.push('Budgets (issue 29)');
  check(
    'exact HTTP throughput at 16 connections, 16 users, vs 0.6 x raw search+audit',
    http16,
    ref16 === undefined ? undefined : 0.6 * ref16,
    false,
    'req/s',
  );
  check('exact HTTP p99 at 16 connections, 16 users', group('HTTP', 16, EXACT)?.p99, 50, true, 'ms');
  check('exact HTTP p99 at 16 connections, one user', group('HTTP one user', 16, EXACT)?.p99, 100, true, 'ms');
  check('server CPU per exact search at 16 connections, 16 users', run('HTTP', 16)?.cpuPerExactMs?.server, 0.4, true, 'ms');
  return lines;
}
