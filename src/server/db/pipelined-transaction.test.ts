// The pipelined transaction (issue 29): BEGIN sent with the work's first statement, the last statement with COMMIT.
// On the test database (PGlite, or PostgreSQL when DATABASE_URL is set, where the pipelining happens): what it
// commits and what it rolls back must be exactly a plain transaction's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { hotStatement, slotValues, type Db } from './client';
import { lastStatement, pipelinedTransaction } from './pipelined-transaction';

const rows = async <T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

describe('pipelinedTransaction', () => {
  let t: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
    await db.execute(sql`CREATE TABLE pipelined_probe (tag text NOT NULL, n int NOT NULL CHECK (n > 0))`);
  }, 60_000);
  afterAll(async () => t?.dispose());

  const insert = hotStatement<{ tag: string; n: number }, { n: number }>(
    'nhr_test_pipelined_insert',
    (slot) => sql`INSERT INTO pipelined_probe (tag, n) VALUES (${slot.tag}::text, ${slot.n}::int) RETURNING n`,
  );
  const kept = async (tag: string): Promise<number[]> =>
    (await rows<{ n: number }>(db, sql`SELECT n FROM pipelined_probe WHERE tag = ${tag} ORDER BY n`)).map((r) => r.n);

  it("commits the work and its last statement together, and answers the work's value", async () => {
    const value = await pipelinedTransaction(db, async (tx) => {
      await insert(tx, slotValues({ tag: 'both', n: 1 }));
      return { value: 'done', last: lastStatement(insert, slotValues({ tag: 'both', n: 2 })) };
    });
    expect(value).toBe('done');
    expect(await kept('both')).toEqual([1, 2]);
  });

  it('keeps nothing when the last statement fails (the COMMIT behind it only rolls back)', async () => {
    await expect(
      pipelinedTransaction(db, async (tx) => {
        await insert(tx, slotValues({ tag: 'last-fails', n: 1 }));
        return { value: null, last: lastStatement(insert, slotValues({ tag: 'last-fails', n: -1 })) };
      }),
    ).rejects.toThrow();
    expect(await kept('last-fails')).toEqual([]);
    // The pool's connections still work: the next transaction commits.
    await pipelinedTransaction(db, async () => ({ value: null, last: lastStatement(insert, slotValues({ tag: 'after', n: 1 })) }));
    expect(await kept('after')).toEqual([1]);
  });

  it('keeps nothing when the work throws, its first statement included (BEGIN went out before it)', async () => {
    await expect(
      pipelinedTransaction(db, async (tx) => {
        await insert(tx, slotValues({ tag: 'work-throws', n: 1 }));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await kept('work-throws')).toEqual([]);
  });

  // PostgreSQL only: there a COMMIT of an aborted transaction is refused (PGlite's drizzle transaction rolls back silently).
  it.runIf(Boolean(process.env.DATABASE_URL))(
    'refuses to answer as committed when a statement of the work failed and the work went on',
    async () => {
      await expect(
        pipelinedTransaction(db, async (tx) => {
          await insert(tx, slotValues({ tag: 'swallowed', n: 1 }));
          await insert(tx, slotValues({ tag: 'swallowed', n: -1 })).catch(() => undefined);
          return { value: null, last: null };
        }),
      ).rejects.toThrow();
      expect(await kept('swallowed')).toEqual([]);
    },
  );

  it('runs at the isolation level asked for', async () => {
    const level = await pipelinedTransaction(
      db,
      async (tx) => {
        const [row] = await rows<{ level: string }>(tx as Db, sql`SELECT current_setting('transaction_isolation') AS level`);
        return { value: row!.level, last: null };
      },
      'repeatable read',
    );
    expect(level).toBe('repeatable read');
  });
});
