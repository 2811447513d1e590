// Runs the targets through a search driver at a given concurrency and summarizes latency and recall per group.
import type { PatientSearchResult } from '../../src/contracts/patients';
import type { Category, Target } from './targets';

/** How a query reaches the database: directly through the repository SQL, or (next) through HTTP. */
export interface SearchDriver {
  name: string;
  search(target: Target, worker: number): Promise<PatientSearchResult[]>;
}

export interface Sample {
  target: Target;
  ms: number;
  resultIds: number[];
}

export async function runTargets(driver: SearchDriver, targets: readonly Target[], concurrency: number, repeat: number): Promise<Sample[]> {
  const queue: Target[] = [];
  for (let r = 0; r < repeat; r++) queue.push(...targets);
  const samples: Sample[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < queue.length) {
        const target = queue[next++]!;
        const t0 = performance.now();
        const results = await driver.search(target, worker);
        samples.push({ target, ms: performance.now() - t0, resultIds: results.map((r) => r.id) });
      }
    }),
  );
  return samples;
}

export interface GroupStats {
  group: string;
  queries: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  /** Queries per second at this concurrency by Little's law (concurrency / mean latency). */
  requestsPerSecond: number;
  /** Fuzzy only: the share of queries whose first result is a known answer. */
  recallAt1?: number;
  /** Fuzzy only: known answers among the first 10 results, over min(10, number of answers), averaged. */
  recallAt10?: number;
  /** Fuzzy only: as recallAt10 for the first 20 results. */
  recallAt20?: number;
  /** Answered correctly: exact methods return the target (or nothing for an unknown NC number). */
  correct?: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summarize(group: string, samples: readonly Sample[], concurrency: number, fuzzy: boolean): GroupStats {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const total = ms.reduce((a, b) => a + b, 0);
  const stats: GroupStats = {
    group,
    queries: samples.length,
    p50: round(percentile(ms, 50)),
    p95: round(percentile(ms, 95)),
    p99: round(percentile(ms, 99)),
    mean: round(total / Math.max(1, ms.length)),
    requestsPerSecond: Math.round(total > 0 ? (samples.length * 1000 * concurrency) / total : 0),
  };
  if (fuzzy) {
    const withAnswers = samples.filter((s) => s.target.answers.length > 0);
    stats.recallAt1 = ratio(withAnswers.filter((s) => s.target.answers.includes(s.resultIds[0] ?? -1)).length, withAnswers.length);
    const recallAt = (k: number) =>
      ratio(
        withAnswers.reduce((sum, s) => {
          const answers = new Set(s.target.answers);
          const found = s.resultIds.slice(0, k).filter((id) => answers.has(id)).length;
          return sum + found / Math.min(k, answers.size);
        }, 0),
        withAnswers.length,
      );
    stats.recallAt10 = recallAt(10);
    stats.recallAt20 = recallAt(20);
  } else {
    stats.correct = ratio(
      samples.filter((s) => (s.target.targetId === null ? s.resultIds.length === 0 : s.resultIds.includes(s.target.targetId))).length,
      samples.length,
    );
  }
  return stats;
}

export const GROUPS: Record<string, (c: Category) => boolean> = {
  'exact (name-dob + NC)': (c) => c.startsWith('exact') || c.startsWith('nc'),
  'name-dob': (c) => c.startsWith('exact'),
  'NC number': (c) => c.startsWith('nc'),
  'fuzzy (all)': (c) => c.startsWith('fuzzy'),
};

const round = (x: number): number => Math.round(x * 100) / 100;
const ratio = (a: number, b: number): number => (b === 0 ? 0 : Math.round((a / b) * 1000) / 1000);
