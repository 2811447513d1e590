// The bulk-search check's cost does not grow with the user's rows in search_volume (issue 29, decision 065). A user
// absent from the last ANALYZE (a new user; above all one who starts harvesting) was estimated at one row: the check
// then scanned all of the user's rows, and ran its UPDATE's locking subquery again for each of them (27.6 million
// buffer reads for one call of a user with 5,129 rows). The work is counted in buffers, not timed: EXPLAIN ANALYZE
// of a statement that calls the function counts the buffers of the function's own statements.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { query } from '../../test/audit-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';

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
}

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
