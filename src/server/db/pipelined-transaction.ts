// A transaction with two round trips fewer (issue 29): on PostgreSQL its BEGIN goes out with its first statement and
// its COMMIT with its last, in node-postgres's pipeline mode (the pool's clients are opened with `pipeline: true`).
// Under load every round trip waits a turn of the worker's event loop with the connection held: an add of a clinical
// item was five of them (BEGIN, the grant check, the insert, the audit append, COMMIT) and is now three.
//
// Why it is safe:
// - BEGIN: the work's first statement is written right behind it on the same connection, so the server runs it inside
//   the transaction. A BEGIN on a live connection does not fail; on a dead one nothing behind it runs either. Its
//   answer is still awaited before the end.
// - COMMIT: the last statement and COMMIT are written together. When the last statement fails, the server has aborted
//   the transaction, and a COMMIT of an aborted transaction only rolls it back (its answer is ROLLBACK, not an error):
//   nothing of the work is kept, exactly as if the COMMIT had waited. The last statement is a hot statement
//   (db/client's hotStatement), which writes its query to the connection before it first waits, so it always goes
//   out before the COMMIT.
// PGlite (one in-process backend, no network) runs drizzle's transaction as it did.
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Db, DbOrTx, HotStatement, SlotValues } from './client';

export type IsolationLevel = 'read committed' | 'repeatable read' | 'serializable';

declare const lastBrand: unique symbol;
/** The statement sent together with COMMIT: a hot statement and its values; only lastStatement makes one. */
export interface LastStatement {
  run(tx: DbOrTx): Promise<unknown>;
  readonly [lastBrand]: true;
}

/** `statement` with `values`, to be sent together with COMMIT. */
export const lastStatement = <V extends object, R>(statement: HotStatement<V, R>, values: SlotValues<V>): LastStatement =>
  ({ run: (tx: DbOrTx) => statement(tx, values) }) as unknown as LastStatement;

/** What the work answers: its value, and the statement to send with COMMIT (none: COMMIT alone). */
export interface TransactionEnd<T> {
  value: T;
  last: LastStatement | null;
}

/** drizzle's node-postgres session: public at run time, its fields typed internal. */
interface PoolSession {
  client: pg.Pool;
  dialect: ConstructorParameters<typeof NodePgSession>[1];
  schema: ConstructorParameters<typeof NodePgSession>[2];
  options: ConstructorParameters<typeof NodePgSession>[3];
}

/** Runs `work` in one transaction and commits it (rolls it back on any throw); see the file's head. */
export async function pipelinedTransaction<T>(
  db: Db,
  work: (tx: DbOrTx) => Promise<TransactionEnd<T>>,
  isolationLevel?: IsolationLevel,
): Promise<T> {
  const session = (db as unknown as { session: unknown }).session;
  if (!(session instanceof NodePgSession)) {
    return db.transaction(
      async (tx) => {
        const { value, last } = await work(tx);
        if (last) await last.run(tx);
        return value;
      },
      isolationLevel ? { isolationLevel } : undefined,
    );
  }
  const pool = session as unknown as PoolSession;
  const client = await pool.client.connect();
  // drizzle's own transaction object over the checked-out client (as its session.transaction builds it), typed as ours.
  const tx = new NodePgTransaction(
    pool.dialect,
    new NodePgSession(client, pool.dialect, pool.schema, pool.options),
    pool.schema,
  ) as unknown as DbOrTx;
  let broken: Error | undefined;
  try {
    // Not awaited here: the work's first statement follows it on the wire.
    const begun = client.query(isolationLevel ? `BEGIN ISOLATION LEVEL ${isolationLevel.toUpperCase()}` : 'BEGIN');
    begun.catch(() => undefined); // its error, if any, is thrown below
    let end: TransactionEnd<T>;
    try {
      end = await work(tx);
      await begun;
    } catch (error) {
      await rollBack(client).catch((e: Error) => (broken = e));
      throw error;
    }
    if (!end.last) {
      const done = await client.query('COMMIT');
      if (done.command !== 'COMMIT') throw new Error(`the transaction ended with ${done.command}, not COMMIT`);
      return end.value;
    }
    // The last statement and COMMIT in one round trip: the statement is on the wire before COMMIT is.
    const last = end.last.run(tx);
    const committed = client.query('COMMIT');
    const [ran, done] = await Promise.allSettled([last, committed]);
    if (ran.status === 'rejected') {
      // The server rolled the transaction back (COMMIT answered ROLLBACK); nothing is kept.
      if (done.status === 'rejected') broken = done.reason as Error;
      throw ran.reason;
    }
    if (done.status === 'rejected') {
      await rollBack(client).catch((e: Error) => (broken = e));
      throw done.reason;
    }
    if (done.value.command !== 'COMMIT') throw new Error(`the transaction ended with ${done.value.command}, not COMMIT`);
    return end.value;
  } finally {
    // A connection whose state is unknown is closed, not handed to the next request.
    client.release(broken);
  }
}

const rollBack = async (client: pg.PoolClient): Promise<void> => {
  await client.query('ROLLBACK');
};
