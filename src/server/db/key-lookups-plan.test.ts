// The hot statements' lookups by key cost the same whatever the last ANALYZE saw (issue 29, decision 065, migration
// 0062). A key absent from the last ANALYZE was estimated at one row. A new user (above all one who starts
// harvesting) made the bulk-search check read all of the user's rows, and run its UPDATE's locking subquery again
// for each of them (27.6 million buffer reads for one call of a user with 5,129 rows). A rate-limit window begun since
// made every gate read the window's counters of every user. The work is counted (buffers, rows), never timed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { limitInStatement } from '../http/rate-limit';
import { query } from '../test/audit-fixtures';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const HEAVY_ROWS = 3000;

interface PlanNode {
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}
type ExplainRow = { 'QUERY PLAN': [{ Plan: PlanNode }] | string };

/** The top plan node of an EXPLAIN (FORMAT JSON) answer (PostgreSQL's driver parses the JSON; PGlite's may not). */
const topNode = (row: ExplainRow): PlanNode => {
  const plan = row['QUERY PLAN'];
  return (typeof plan === 'string' ? (JSON.parse(plan) as [{ Plan: PlanNode }]) : plan)[0].Plan;
};
const rowsFilteredOut = (node: PlanNode): number =>
  (node['Rows Removed by Filter'] ?? 0) + (node.Plans ?? []).reduce((sum, child) => sum + rowsFilteredOut(child), 0);

describe('bulk-search check on a user the statistics have not seen', () => {
  it('reads about as many buffers as patients it was given, not as rows the user has', async () => {
    // Two users ANALYZE has seen, then a third with many rows of which ANALYZE knows nothing.
    await t.db.execute(sql`INSERT INTO search_volume (user_id, patient_id, last_seen)
      SELECT u, p, now() - interval '2 minutes' FROM unnest(ARRAY['seen-1', 'seen-2']) AS u, generate_series(1, 200) AS p`);
    await t.db.execute(sql`ANALYZE search_volume`);
    await t.db.execute(sql`INSERT INTO search_volume (user_id, patient_id, last_seen)
      SELECT 'harvester', p, now() - interval '2 minutes' FROM generate_series(1, ${HEAVY_ROWS}) AS p`);
    // Both of the user's alerts are open: the check grows them and counts nothing (a count is bounded by its
    // threshold, and not what this test is about).
    await t.db.execute(sql`INSERT INTO security_events (user_id, event_type, severity, description, metadata)
      SELECT 'harvester', e, 'HIGH', 'bulk search', '{"count": 3000}'::jsonb
        FROM unnest(ARRAY['BULK_SEARCH_ALERT', 'BULK_SEARCH_DAILY_ALERT']) AS e`);

    // Twenty patients the user has seen (over a minute ago: the check moves each to now) and five new ones; a first
    // call on the same connection plans the function's statements, and the second is measured.
    const ids = (from: number): string =>
      `{${[...Array.from({ length: 20 }, (_, i) => from + i * 97), ...Array.from({ length: 5 }, (_, i) => 100_000 + from + i)].join(',')}}`;
    const call = (from: number) =>
      sql`SELECT nhr_bulk_search_check('harvester', ${ids(from)}::int[], 10, 100000, 100000, 'Test Harvester', NULL, '10.0.0.7',
                                       'vitest', 'bulk search', 'bulk search, day')`;
    const row = await t.db.transaction(async (tx) => {
      await tx.execute(call(1000));
      return (
        await query<{ 'QUERY PLAN': [{ Plan: PlanNode }] | string }>(tx, sql`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${call(100)}`)
      )[0];
    });
    const plan = row!['QUERY PLAN'];
    const top = (typeof plan === 'string' ? (JSON.parse(plan) as [{ Plan: PlanNode }]) : plan)[0].Plan;
    const buffers = top['Shared Hit Blocks'] + top['Shared Read Blocks'];
    // A few buffers per patient given (index descents, heap, the inserts); a scan of the user's rows per patient is
    // tens of thousands, a scan per row hundreds of thousands.
    expect(buffers).toBeGreaterThan(0);
    expect(buffers).toBeLessThan(500);

    const moved = await query<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM search_volume WHERE user_id = 'harvester' AND last_seen > now() - interval '1 minute'`,
    );
    expect(moved[0]!.n).toBe(50);
  });
});

describe('rate-limit gate in a window the statistics have not seen', () => {
  it("reads only its own key's counters, not the window's of every user", async () => {
    const at = new Date();
    const windowMs = 60_000;
    const start = Math.floor(at.getTime() / windowMs) * windowMs;
    const iso = (ms: number): string => new Date(ms).toISOString();
    // ANALYZE sees an earlier window; then 2,000 counters of other users in the current one, and two of this key's.
    await t.db.execute(sql`INSERT INTO rate_limit_counts (key, window_start, backend, hits)
      SELECT 'search:user:other-' || k, ${iso(start - windowMs)}::timestamptz, 1, 1 FROM generate_series(1, 200) AS k`);
    await t.db.execute(sql`ANALYZE rate_limit_counts`);
    await t.db.execute(sql`INSERT INTO rate_limit_counts (key, window_start, backend, hits)
      SELECT 'search:user:other-' || k, ${iso(start)}::timestamptz, b, 1 FROM generate_series(1, 1000) AS k, generate_series(1, 2) AS b`);
    await t.db.execute(sql`INSERT INTO rate_limit_counts (key, window_start, backend, hits)
      SELECT 'search:user:me', ${iso(start)}::timestamptz, b, 3 FROM generate_series(1, 2) AS b`);

    const { gate } = limitInStatement({ key: 'search:user:me', max: 100, windowMs, at });
    const [counted] = await query<{ counted: number }>(t.db, gate);
    expect(counted!.counted).toBe(6);
    const [row] = await query<ExplainRow>(t.db, sql`EXPLAIN (ANALYZE, FORMAT JSON) ${gate}`);
    expect(rowsFilteredOut(topNode(row!))).toBe(0);
  });
});
