// docs/security/audit-append-only.sql, applied for real: the application role reads and appends through
// nhr_audit_append only, and the guard triggers refuse changes even to the owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Db } from '../db/client';
import * as schema from '../db/schema';
import { auditEntry } from '../test/audit-fixtures';
import { appendOnlyScriptFor, runSqlScript } from '../test/append-only-script';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { verifyAuditChain } from './audit-verify';
import { auditAppendSql, sqlJson } from './audit-in-statement';
import { writeAudit } from './audit-writer';

const role = `nhr_app_test_${randomBytes(4).toString('hex')}`;

let database: TestDatabase;
let db: Db;

const scriptFor = appendOnlyScriptFor;
const runScript = (text: string): Promise<void> => runSqlScript(database.handle, text);

/** Runs fn on a session that has SET ROLE to the application role. */
async function asApp<T>(fn: (appDb: Db) => Promise<T>): Promise<T> {
  if (database.handle.kind === 'pglite') {
    await db.execute(sql.raw(`SET ROLE "${role}"`));
    try {
      return await fn(db);
    } finally {
      await db.execute(sql`RESET ROLE`);
    }
  }
  const client = await (db as unknown as { $client: pg.Pool }).$client.connect();
  try {
    await client.query(`SET ROLE "${role}"`);
    return await fn(drizzle(client, { schema }) as unknown as Db);
  } finally {
    await client.query('RESET ROLE');
    client.release();
  }
}

/** The SQLSTATE of a failed query (drizzle wraps the driver's error as its cause). */
async function sqlState(statement: Promise<unknown>): Promise<string | undefined> {
  try {
    await statement;
    return undefined;
  } catch (e) {
    const err = e as { code?: string; cause?: { code?: string } };
    return err.cause?.code ?? err.code ?? 'no code';
  }
}
const DENIED = '42501'; // insufficient_privilege: both missing grants and the guard triggers use it

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
  await db.execute(sql.raw(`CREATE ROLE "${role}" NOLOGIN`));
  await writeAudit(db, auditEntry());
  await runScript(scriptFor(role));
  await runScript(scriptFor(role)); // idempotent: the documented command is re-run after every migration
});
afterAll(async () => {
  if (db) {
    await db.execute(sql.raw(`DROP OWNED BY "${role}"`)).catch(() => undefined);
    await db.execute(sql.raw(`DROP ROLE IF EXISTS "${role}"`)).catch(() => undefined);
  }
  await database?.dispose();
});

describe('the application role after audit-append-only.sql', () => {
  it('appends through writeAudit and reads and verifies the log', async () => {
    await asApp(async (app) => {
      await app.transaction((tx) => writeAudit(tx, auditEntry({ action: 'SEARCH' })));
      const rows = await app.execute(sql`SELECT count(*)::int AS n FROM audit_logs`);
      expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(2);
      expect(await verifyAuditChain(app)).toMatchObject({ ok: true });
    });
  });

  it('appends inside its own statement through nhr_audit_append_sql, and the log verifies', async () => {
    await asApp(async (app) => {
      const { newValues: _n, patientId: _p, ...base } = auditEntry({ action: 'SEARCH' });
      const before = (await app.execute(sql`SELECT count(*)::int AS n FROM audit_logs`)) as unknown as { rows: { n: number }[] };
      await app.execute(
        sql`WITH x AS (SELECT ARRAY[7, 8]::int[] AS v) SELECT ${auditAppendSql({ ...base, newValues: { ids: sqlJson(sql`'[' || array_to_string(x.v, ',') || ']'`) }, patientId: null })} FROM x`,
      );
      const after = (await app.execute(sql`SELECT count(*)::int AS n FROM audit_logs`)) as unknown as { rows: { n: number }[] };
      expect(after.rows[0]!.n).toBe(before.rows[0]!.n + 1);
      expect(await verifyAuditChain(app)).toMatchObject({ ok: true });
    });
  });

  it.each([
    ['UPDATE audit_logs', `UPDATE audit_logs SET user_name = 'x'`],
    ['DELETE FROM audit_logs', 'DELETE FROM audit_logs'],
    ['TRUNCATE audit_logs', 'TRUNCATE audit_logs'],
    ['INSERT INTO audit_logs', `INSERT INTO audit_logs SELECT * FROM audit_logs WHERE false`],
    ['UPDATE audit_chain_head', 'UPDATE audit_chain_head SET last_seq = 0'],
    ['DELETE FROM audit_chain_head', 'DELETE FROM audit_chain_head'],
    ['UPDATE compliance_reports', `UPDATE compliance_reports SET title = 'x'`],
    ['DELETE FROM security_events', 'DELETE FROM security_events'],
  ])('is refused: %s', async (_name, statement) => {
    expect(await asApp((app) => sqlState(app.execute(sql.raw(statement))))).toBe(DENIED);
  });

  it('keeps its ordinary rights on the other tables', async () => {
    await asApp(async (app) => {
      await app.execute(sql`INSERT INTO patients (first_name, last_name, sex, id_number) VALUES ('A', 'B', 'Other', '12345678903')`);
      await app.execute(sql`UPDATE patients SET first_name = 'C' WHERE id_number = '12345678903'`);
      await app.execute(sql`DELETE FROM patients WHERE id_number = '12345678903'`);
      await app.execute(sql`INSERT INTO compliance_reports (report_type, title, date_range, generated_by, status, report_data)
        VALUES ('HIPAA', 't', '{}', 'me', 'COMPLETED', '{}')`);
    });
  });
});

describe('the guard triggers, for the owner too', () => {
  it.each([
    ['an update of a row', `UPDATE audit_logs SET user_name = 'x' WHERE id = 1`],
    ['a delete', 'DELETE FROM audit_logs WHERE id = 1'],
    ['a truncate', 'TRUNCATE audit_logs'],
    [
      'a row inserted outside its chain',
      `INSERT INTO audit_logs (id, chain, chain_seq, user_id, user_name, action, resource_type,
      prev_hash, hash) SELECT id + 100, chain, chain_seq + 100, user_id, user_name, action, resource_type, prev_hash, hash
      FROM audit_logs WHERE id = 1`,
    ],
    ['a chain head moved back', 'UPDATE audit_chain_head SET last_seq = 0 WHERE last_seq > 0'],
    ['a chain head removed', 'DELETE FROM audit_chain_head'],
  ])('refuse %s', async (_name, statement) => {
    expect(await sqlState(db.execute(sql.raw(statement)))).toBe(DENIED);
  });

  it('still let the writer append, and the chain stays valid', async () => {
    await writeAudit(db, auditEntry({ action: 'CREATE' }));
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: 4 });
  });
});

describe('the month partitions of audit_logs (decision 057)', () => {
  const monthAhead = (n: number): string => {
    const now = new Date();
    return `audit_logs_${new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + n, 1)).toISOString().slice(0, 7).replace('-', '_')}`;
  };
  const current = monthAhead(0);

  it.each([
    ['an update of a row in its partition', `UPDATE ${current} SET user_name = 'x'`],
    ['a delete from its partition', `DELETE FROM ${current}`],
    ['a truncate of its partition', `TRUNCATE ${current}`],
  ])('refuse %s, for the owner too', async (_name, statement) => {
    expect(await sqlState(db.execute(sql.raw(statement)))).toBe(DENIED);
  });

  it.each([
    ['UPDATE a partition', `UPDATE ${current} SET user_name = 'x'`],
    ['DELETE FROM a partition', `DELETE FROM ${current}`],
    ['TRUNCATE a partition', `TRUNCATE ${current}`],
    ['INSERT INTO a partition', `INSERT INTO ${current} SELECT * FROM ${current} WHERE false`],
    ['creating a partition itself', `SELECT nhr_audit_create_partition('2001-01-01')`],
    ['detaching a partition', `ALTER TABLE audit_logs DETACH PARTITION ${current}`],
  ])('refuse the application role: %s', async (_name, statement) => {
    expect(await asApp((app) => sqlState(app.execute(sql.raw(statement))))).toBe(DENIED);
  });

  it('let the application role create the months ahead, each guarded as the others', async () => {
    const far = monthAhead(6);
    await asApp((app) => app.execute(sql`SELECT nhr_audit_ensure_partitions(6)`));
    const [made] = await queryAudit<{ n: number }>(sql`SELECT count(*)::int AS n FROM pg_class WHERE relname = ${far} AND relispartition`);
    expect(made!.n).toBe(1);
    expect(await sqlState(db.execute(sql.raw(`TRUNCATE ${far}`)))).toBe(DENIED);
    expect(await asApp((app) => sqlState(app.execute(sql.raw(`INSERT INTO ${far} SELECT * FROM ${current} WHERE false`))))).toBe(DENIED);
    expect(await asApp((app) => sqlState(app.execute(sql.raw(`DELETE FROM ${far}`))))).toBe(DENIED);
  });

  it('still let the writer append, and the chain stays valid', async () => {
    await asApp((app) => app.transaction((tx) => writeAudit(tx, auditEntry({ action: 'UPDATE' }))));
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: 5 });
  });
});

async function queryAudit<T>(statement: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(statement)) as unknown as { rows: T[] }).rows;
}
