// The canonical JSON text a statement builds for an audit row's new_values is exactly canonicalJson of the same
// value (so the verifier's recomputed hash matches), with SQL-computed parts, nesting, odd text and left-out keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { queryRows } from '../test/sql';
import { canonicalSql, sqlJson } from './audit-in-statement';
import { canonicalJson, toJsonValue } from './canonical-json';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.dispose();
});

const evaluate = async (expr: ReturnType<typeof canonicalSql>): Promise<string> =>
  (
    await queryRows<{ text: string }>(
      t.handle.db,
      sql`WITH x AS (SELECT ARRAY[3, 1, 2]::int[] AS v, 42 AS n) SELECT ${expr} AS text FROM x`,
    )
  )[0]!.text;

describe('canonicalSql', () => {
  it('matches canonicalJson of the same value, with parts computed in the statement', async () => {
    const text = await evaluate(
      canonicalSql({
        zeta: 'ǃXoo "quoted" \\ 名',
        alpha: { b: sqlJson(sql`x.n`), a: [1, sqlJson(sql`'[' || array_to_string(x.v, ',') || ']'`), null] },
        left: undefined as unknown as null,
        flag: true,
      }),
    );
    expect(text).toBe(canonicalJson(toJsonValue({ zeta: 'ǃXoo "quoted" \\ 名', alpha: { b: 42, a: [1, [3, 1, 2], null] }, flag: true })));
  });

  it('gives plain values without any SQL part', async () => {
    expect(await evaluate(canonicalSql({ view: 'RECORD', n: 1.5 }))).toBe('{"n":1.5,"view":"RECORD"}');
  });
});
