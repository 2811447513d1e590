import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { StaffActor } from '../context/actor';
import type { Db } from '../db/client';
import * as schema from '../db/schema';
import { auditEntry, auditRowCount, query, testMeta } from '../test/audit-fixtures';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { auditRowHash, GENESIS_HASH, type AuditChainRow } from './audit-hash';
import { verifyAuditChain } from './audit-verify';
import { auditActorOf, writeAudit } from './audit-writer';

let database: TestDatabase;
let db: Db;
// Concurrent writers: on PostgreSQL a pool of 40 connections, so several connections share each of the 16
// chains and really contend for its lock. (PGlite has one connection: everything is serialized anyway.)
let busy: Db;
let busyPool: pg.Pool | undefined;
beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
  busyPool = database.url ? new pg.Pool({ connectionString: database.url, max: 40 }) : undefined;
  busy = busyPool ? (drizzle(busyPool, { schema }) as unknown as Db) : db;
});
afterAll(async () => {
  await busyPool?.end();
  await database?.dispose();
});

/** Runs n audited transactions at once on `busy`; returns the outcomes and the chains shared by several connections. */
async function concurrently(
  n: number,
  work: (tx: Db, i: number) => Promise<void>,
  options?: { isolationLevel: 'repeatable read' },
): Promise<{ results: PromiseSettledResult<void>[]; sharedChains: number }> {
  const pidsByChain = new Map<number, Set<number>>();
  const results = await Promise.allSettled(
    Array.from({ length: n }, (_, i) =>
      busy.transaction(async (tx) => {
        const [{ pid }] = (await query<{ pid: number }>(tx, sql`SELECT pg_backend_pid() AS pid`)) as [{ pid: number }];
        const chain = (pid % 16) + 1;
        pidsByChain.set(chain, (pidsByChain.get(chain) ?? new Set()).add(pid));
        await work(tx as unknown as Db, i);
      }, options),
    ),
  );
  return { results, sharedChains: [...pidsByChain.values()].filter((pids) => pids.size > 1).length };
}

type StoredRow = AuditChainRow & { prevHash: string; hash: string };
const rowsSql = sql`SELECT id::float8 AS id, chain, chain_seq::float8 AS "chainSeq", user_id AS "userId", user_name AS "userName",
      action, resource_type AS "resourceType", resource_id AS "resourceId", patient_id AS "patientId",
      old_values AS "oldValues", new_values AS "newValues", ip_address AS "ipAddress", user_agent AS "userAgent",
      session_id AS "sessionId", facility, compliance_flags AS "complianceFlags", prev_hash AS "prevHash", hash,
      to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "timestamp"
      FROM audit_logs`;
const lastRows = (n: number): Promise<StoredRow[]> =>
  query<StoredRow>(db, sql`${rowsSql} ORDER BY id DESC LIMIT ${n}`).then((rows) => rows.reverse());

/** Every chain links row to row from the genesis hash, at positions 1, 2, 3, ... */
async function expectIntactChains(): Promise<Map<number, StoredRow[]>> {
  const byChain = new Map<number, StoredRow[]>();
  for (const row of await query<StoredRow>(db, sql`${rowsSql} ORDER BY chain, chain_seq`)) {
    byChain.set(row.chain, [...(byChain.get(row.chain) ?? []), row]);
  }
  for (const rows of byChain.values()) {
    rows.forEach((row, i) => {
      const prev = i === 0 ? GENESIS_HASH : rows[i - 1]!.hash;
      expect(row.chainSeq).toBe(i + 1);
      expect(row.prevHash).toBe(prev);
      expect(row.hash).toBe(auditRowHash(prev, row));
    });
  }
  return byChain;
}

interface Head {
  chain: number;
  lastSeq: number;
  lastId: number | null;
  lastHash: string;
}
const heads = (): Promise<Head[]> =>
  query<Head>(
    db,
    sql`SELECT chain, last_seq::float8 AS "lastSeq", last_id::float8 AS "lastId", last_hash AS "lastHash" FROM audit_chain_head ORDER BY chain`,
  );
const chainLength = async (): Promise<number> => (await heads()).reduce((n, h) => n + h.lastSeq, 0);

const staff: StaffActor = {
  kind: 'staff',
  userId: 'b3c1',
  firstName: 'Ndapewa',
  lastName: 'Nghipondoka',
  email: 'n@health.gov.na',
  roleId: 3,
  roleName: 'doctor',
  roleDisplayName: 'Doctor',
  facility: 'Oshakati State Hospital',
  department: 'Emergency',
  permissions: new Set(),
};

describe('auditActorOf', () => {
  it('names a staff user by id and "First Last", with their facility', () => {
    expect(auditActorOf(staff)).toEqual({ userId: 'b3c1', userName: 'Ndapewa Nghipondoka', facility: 'Oshakati State Hospital' });
  });
  it('names a patient as patient:<id> / Patient <id>', () => {
    expect(auditActorOf({ kind: 'patient', patientId: 17 })).toEqual({ userId: 'patient:17', userName: 'Patient 17', facility: null });
  });
});

describe('writeAudit', () => {
  it('starts the chain at the genesis hash and stores every field, the session as its hash', async () => {
    const before = Date.now();
    await db.transaction((tx) =>
      writeAudit(
        tx,
        auditEntry({
          action: 'UPDATE',
          resourceType: 'DIAGNOSIS',
          resourceId: 9,
          patientId: 42,
          oldValues: { status: 'Active' },
          newValues: { status: 'Resolved', resolvedDate: '2025-01-31' },
          complianceFlags: { type: 'BREAK_GLASS', reason: 'Unconscious patient in ER' },
        }),
      ),
    );
    const [row] = await lastRows(1);
    expect(row).toMatchObject({
      id: 1,
      chainSeq: 1,
      userId: 'user-1',
      userName: 'Ndapewa Nghipondoka',
      action: 'UPDATE',
      resourceType: 'DIAGNOSIS',
      resourceId: '9',
      patientId: 42,
      oldValues: { status: 'Active' },
      newValues: { status: 'Resolved', resolvedDate: '2025-01-31' },
      ipAddress: testMeta.ip,
      userAgent: testMeta.userAgent,
      sessionId: testMeta.sessionHash,
      facility: 'Windhoek Central Hospital',
      complianceFlags: { type: 'BREAK_GLASS', reason: 'Unconscious patient in ER' },
      prevHash: GENESIS_HASH,
    });
    expect(row!.hash).toBe(auditRowHash(GENESIS_HASH, row!));
    const at = Date.parse(row!.timestamp);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    expect((await heads()).filter((h) => h.lastSeq > 0)).toEqual([{ chain: row!.chain, lastSeq: 1, lastId: 1, lastHash: row!.hash }]);
  });

  it('uses the chain of its database connection, one of 16', async () => {
    const [{ chain }] = (await query<{ chain: number }>(db, sql`SELECT chain FROM audit_logs WHERE id = 1`)) as [{ chain: number }];
    expect(chain).toBeGreaterThanOrEqual(1);
    expect(chain).toBeLessThanOrEqual(16);
    expect(await heads()).toHaveLength(16);
  });

  it('links each row to the one before it in its chain, at contiguous positions', async () => {
    for (let i = 0; i < 3; i++) await writeAudit(db, auditEntry({ action: 'SEARCH', resourceId: null, patientId: null }));
    expect((await lastRows(4)).map((r) => r.id)).toEqual([1, 2, 3, 4]);
    await expectIntactChains();
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: 4 });
  });

  it('rolls back with the caller: no row, the heads unchanged, positions still contiguous', async () => {
    const before = await heads();
    await expect(
      db.transaction(async (tx) => {
        await writeAudit(tx, auditEntry());
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await heads()).toEqual(before);
    await writeAudit(db, auditEntry());
    expect(await chainLength()).toBe(5);
    await expectIntactChains();
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: 5 });
  });

  it('stores values exactly as hashed: dates, undefined, unstorable characters, long headers', async () => {
    await writeAudit(
      db,
      auditEntry({
        actor: { userId: 'u\u0000x', userName: 'Lone \ud800 surrogate' },
        meta: { ip: '::1', userAgent: 'x'.repeat(5000), sessionHash: null },
        newValues: {
          when: new Date('2025-03-01T10:00:00Z'),
          skip: undefined,
          nul: 'a\u0000b',
          big: 2 ** 64,
          tiny: 1e-7,
          list: [1, undefined, 'é'],
        },
        oldValues: null,
        complianceFlags: undefined,
      }),
    );
    const [row] = await lastRows(1);
    expect(row).toMatchObject({
      userId: 'u\ufffdx',
      userName: 'Lone \ufffd surrogate',
      facility: null,
      sessionId: null,
      oldValues: null,
      complianceFlags: null,
      newValues: { when: '2025-03-01T10:00:00.000Z', nul: 'a\ufffdb', big: 2 ** 64, tiny: 1e-7, list: [1, null, 'é'] },
    });
    expect(row!.userAgent).toHaveLength(512);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
  });

  it('refuses a patientId that is not an integer', async () => {
    await expect(writeAudit(db, auditEntry({ patientId: 1.5 }))).rejects.toThrow(/integer/);
    await expect(writeAudit(db, auditEntry({ patientId: 2 ** 40 }))).rejects.toThrow(/integer/);
  });

  it('fails loudly, writing nothing, when the chain head is missing', async () => {
    const before = await auditRowCount(db);
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`DELETE FROM audit_chain_head`);
        await writeAudit(tx, auditEntry());
      }),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/audit chain head is missing/) } });
    expect(await auditRowCount(db)).toBe(before);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
  });
});

describe('concurrent writers', () => {
  it('50 concurrent audited transactions leave valid chains, with connections contending for chains on PostgreSQL', async () => {
    const before = await chainLength();
    const { results, sharedChains } = await concurrently(50, async (tx, i) => {
      // Some work before the audit write, so the transactions overlap on PostgreSQL.
      await tx.execute(sql`SELECT pg_sleep(${(i % 5) / 1000})`);
      await writeAudit(tx, auditEntry({ resourceId: i, newValues: { i } }));
    });
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    if (busyPool) expect(sharedChains).toBeGreaterThan(0);
    const rows = await lastRows(50);
    expect(new Set(rows.map((r) => (r.newValues as { i: number }).i)).size).toBe(50);
    expect(new Set(rows.map((r) => `${r.chain}:${r.chainSeq}`)).size).toBe(50);
    const chains = await expectIntactChains();
    if (busyPool) expect(chains.size).toBeGreaterThan(1);
    expect(await chainLength()).toBe(before + 50);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: before + 50 });
  });

  it('stays valid and gap-free when some of the concurrent transactions roll back', async () => {
    const before = await chainLength();
    const { results } = await concurrently(50, async (tx, i) => {
      await writeAudit(tx, auditEntry({ resourceId: i }));
      await tx.execute(sql`SELECT pg_sleep(0.002)`);
      if (i % 5 === 0) throw new Error('rolled back');
    });
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(10);
    expect(await auditRowCount(db)).toBe(before + 40);
    await expectIntactChains();
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: before + 40 });
  });

  it('never forks under REPEATABLE READ: a writer that lost the race fails instead', async () => {
    const before = await chainLength();
    const { results } = await concurrently(
      40,
      async (tx) => {
        await tx.execute(sql`SELECT count(*) FROM audit_chain_head`); // takes the snapshot
        await tx.execute(sql`SELECT pg_sleep(0.005)`);
        await writeAudit(tx, auditEntry());
      },
      { isolationLevel: 'repeatable read' },
    );
    const written = results.filter((r) => r.status === 'fulfilled').length;
    for (const r of results)
      if (r.status === 'rejected') expect(String(r.reason?.cause ?? r.reason)).toMatch(/serializ|concurrent update/i);
    expect(written).toBeGreaterThan(0);
    await expectIntactChains();
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: before + written });
  });
});
