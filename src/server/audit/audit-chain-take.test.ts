// Which chain an audit row goes to (migration 0057, decision 060): a transaction takes the first chain no other
// transaction holds, starting from its connection's own, and keeps it for all its rows. Two connections whose own
// chain is the same no longer wait for each other's commit. Needs two connections: PostgreSQL only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { auditEntry } from '../test/audit-fixtures';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { auditAppendSql } from './audit-in-statement';
import { verifyAuditChain } from './audit-verify';

let database: TestDatabase;
let pool: pg.Pool | undefined;
beforeAll(async () => {
  database = await createTestDatabase();
  pool = database.url ? new pg.Pool({ connectionString: database.url, max: 4 }) : undefined;
});
afterAll(async () => {
  await pool?.end();
  await database?.dispose();
});

/** Appends one audit row on `client` as the hot statements do (in the statement); the chain it went to. */
async function append(client: pg.PoolClient): Promise<number> {
  const { newValues: _n, patientId: _p, ...entry } = auditEntry({ action: 'SEARCH' });
  const written = await drizzle(client).execute<{ id: string }>(
    sql`SELECT ${auditAppendSql({ ...entry, newValues: { n: 1 }, patientId: null })} AS id`,
  );
  const { rows } = await client.query<{ chain: number }>('SELECT chain FROM audit_logs WHERE id = $1', [written.rows[0]!.id]);
  return rows[0]!.chain;
}

describe.skipIf(!process.env.DATABASE_URL)('the audit chain a transaction takes', () => {
  it("does not wait for a transaction holding the connection's own chain: it takes a free one", async () => {
    const holder = await pool!.connect();
    const writer = await pool!.connect();
    try {
      const { rows } = await writer.query<{ own: number }>('SELECT pg_backend_pid() % 16 + 1 AS own');
      const own = rows[0]!.own;
      // Another transaction holds the writer's own chain, as a connection sharing it would while its statement runs.
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM audit_chain_head WHERE chain = $1 FOR UPDATE', [own]);
      // Before migration 0057 this waited for the holder's commit: here it would fail on the lock timeout.
      await writer.query("SET lock_timeout = '2s'");
      expect(await append(writer)).not.toBe(own);
      await holder.query('COMMIT');
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
      writer.release();
    }
    expect(await verifyAuditChain(database.handle.db)).toMatchObject({ ok: true });
  });

  it("keeps one chain for all of a transaction's rows, in order", async () => {
    const client = await pool!.connect();
    try {
      await client.query('BEGIN');
      const chains: number[] = [];
      for (let i = 0; i < 3; i++) chains.push(await append(client));
      await client.query('COMMIT');
      expect(new Set(chains).size).toBe(1);
      // The next transaction on the same connection starts afresh (the setting was local to the transaction).
      const { rows } = await client.query<{ held: string | null }>("SELECT current_setting('nhr.audit_chain', true) AS held");
      expect(rows[0]!.held ?? '').toBe('');
    } finally {
      client.release();
    }
    expect(await verifyAuditChain(database.handle.db)).toMatchObject({ ok: true });
  });

  it('waits for its own chain only when every chain is held', async () => {
    const holder = await pool!.connect();
    const writer = await pool!.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM audit_chain_head FOR UPDATE');
      await writer.query("SET lock_timeout = '300ms'");
      // 55P03: lock_not_available (the lock timeout).
      await expect(append(writer)).rejects.toMatchObject({ cause: { code: '55P03' } });
      await holder.query('COMMIT');
      await writer.query('RESET lock_timeout');
      expect(await append(writer)).toBeGreaterThan(0);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
      writer.release();
    }
    expect(await verifyAuditChain(database.handle.db)).toMatchObject({ ok: true });
  });
});

describe('the time a row is stamped with (migration 0058)', () => {
  it("is never earlier than the last row of its chain, so a chain's rows fall into the months in position order", async () => {
    const db = database.handle.db;
    // Every head's last row an hour ahead, as when a statement that began earlier takes a chain a later one wrote to.
    const ahead = new Date(Date.now() + 3_600_000);
    await db.execute(sql`UPDATE audit_chain_head SET last_ts = ${ahead.toISOString()}::timestamptz`);
    const { newValues: _n, patientId: _p, ...entry } = auditEntry({ action: 'SEARCH' });
    const [written] = (
      (await db.execute(sql`SELECT ${auditAppendSql({ ...entry, newValues: { n: 2 }, patientId: null })} AS id`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows;
    const [stamped] = (
      (await db.execute(sql`SELECT "timestamp" AS at FROM audit_logs WHERE id = ${written!.id}`)) as unknown as {
        rows: { at: string | Date }[];
      }
    ).rows;
    expect(new Date(stamped!.at).getTime()).toBe(ahead.getTime());
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
  });
});
