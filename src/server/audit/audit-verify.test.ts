import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { auditEntry, query } from '../test/audit-fixtures';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { auditRowHash, GENESIS_HASH, type AuditChainRow } from './audit-hash';
import { parseAnchor, verifyAuditChain, type AuditVerifyResult, type VerifyOptions } from './audit-verify';
import { writeAudit } from './audit-writer';

let database: TestDatabase;
let db: Db;
const ROWS = 6;
let chain: number; // the fixture's chain

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
  // One transaction, so one connection and one chain: ids 1..6 at positions 1..6 on both databases.
  await db.transaction(async (tx) => {
    for (let i = 1; i <= ROWS; i++) {
      await writeAudit(
        tx,
        auditEntry({
          action: i === 3 ? 'UPDATE' : 'VIEW',
          resourceType: i === 3 ? 'MEDICATION' : 'PATIENT',
          resourceId: i,
          patientId: 100 + i,
          oldValues: { dosage: '250mg daily' },
          newValues: { dosage: `${i}00mg daily` },
          complianceFlags: { type: 'BREAK_GLASS', reason: `Emergency ${i}` },
        }),
      );
    }
  });
  [{ chain }] = (await query<{ chain: number }>(db, sql`SELECT chain FROM audit_logs WHERE id = 1`)) as [{ chain: number }];
});
afterAll(async () => {
  await database?.dispose();
});

class Rollback extends Error {}

/** Applies the tampering in a transaction, verifies inside it, then rolls everything back. */
const verifyTampered = (statements: string[], options: VerifyOptions = {}): Promise<AuditVerifyResult> =>
  rolledBack(async (tx) => {
    for (const s of statements) await tx.execute(sql.raw(s));
    return verifyAuditChain(tx, options);
  });

type StoredRow = AuditChainRow & { hash: string };
async function chainRows(tx: DbOrTx): Promise<StoredRow[]> {
  return query<StoredRow>(
    tx,
    sql`SELECT id::float8 AS id, chain, chain_seq::float8 AS "chainSeq", user_id AS "userId", user_name AS "userName",
      action, resource_type AS "resourceType", resource_id AS "resourceId", patient_id AS "patientId",
      old_values AS "oldValues", new_values AS "newValues", ip_address AS "ipAddress", user_agent AS "userAgent",
      session_id AS "sessionId", facility, compliance_flags AS "complianceFlags", hash,
      to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "timestamp"
      FROM audit_logs ORDER BY chain, chain_seq`,
  );
}

/** What an attacker who knows the algorithm can do: recompute every hash and every chain head. */
async function rehashAll(tx: DbOrTx): Promise<void> {
  const prevOf = new Map<number, string>();
  for (const row of await chainRows(tx)) {
    const prev = prevOf.get(row.chain) ?? GENESIS_HASH;
    const hash = auditRowHash(prev, row);
    await tx.execute(sql`UPDATE audit_logs SET prev_hash = ${prev}, hash = ${hash} WHERE id = ${row.id}`);
    await tx.execute(
      sql`UPDATE audit_chain_head SET last_seq = ${row.chainSeq}, last_id = ${row.id}, prev_hash = ${prev}, last_hash = ${hash} WHERE chain = ${row.chain}`,
    );
    prevOf.set(row.chain, hash);
  }
}

/** Runs fn in a transaction and rolls it back, whatever it did. */
async function rolledBack<T>(fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await db
    .transaction(async (tx) => {
      result = await fn(tx);
      throw new Rollback();
    })
    .catch((e: unknown) => {
      if (!(e instanceof Rollback)) throw e;
    });
  return result as T;
}

describe('verifyAuditChain', () => {
  it('accepts the untouched chains, in batches, reporting progress', async () => {
    const progress: number[] = [];
    const result = await verifyAuditChain(db, { batchSize: 4, onProgress: (checked) => progress.push(checked) });
    expect(result).toMatchObject({ ok: true, rows: ROWS });
    expect(progress).toEqual([4, 6]);
  });

  it('accepts an empty log', async () => {
    const result = await verifyTampered([
      'DELETE FROM audit_logs',
      `UPDATE audit_chain_head SET last_seq = 0, last_id = NULL, last_hash = repeat('0', 64)`,
    ]);
    expect(result).toEqual({
      ok: true,
      rows: 0,
      anchor: Array(16).fill('0').join('.'),
      payloads: { stored: 0, shredded: 0, opened: false },
      archivedThrough: null,
    });
  });

  it('names a row whose id was changed by the id it had', async () => {
    expect(await verifyTampered(['UPDATE audit_logs SET id = 1003 WHERE id = 3'])).toMatchObject({ ok: false, firstBadId: 3 });
  });

  it.each([
    ['chain', `chain = ${'chain % 16 + 1'}`],
    ['chain_seq', 'chain_seq = 1003'],
    ['user_id', `user_id = 'someone-else'`],
    ['user_name', `user_name = user_name || '.'`],
    ['action', `action = 'VIEW'`],
    ['resource_type', `resource_type = 'PATIENT'`],
    ['resource_id', `resource_id = '99'`],
    ['patient_id', 'patient_id = patient_id + 1'],
    ['old_values', `old_values = '{"dosage":"999mg daily"}'`],
    ['new_values', 'new_values = NULL'],
    ['ip_address', `ip_address = '10.9.9.9'`],
    ['user_agent', `user_agent = 'curl'`],
    ['timestamp (by one microsecond)', `"timestamp" = "timestamp" + interval '1 microsecond'`],
    ['session_id', `session_id = repeat('b', 64)`],
    ['facility', `facility = 'Rundu State Hospital'`],
    ['compliance_flags', `compliance_flags = '{"type":"CONSENT"}'`],
    ['compliance_flags (reason only)', `compliance_flags = jsonb_set(compliance_flags, '{reason}', '"other"')`],
    ['prev_hash', `prev_hash = repeat('f', 64)`],
    ['hash', `hash = repeat('f', 64)`],
  ])('names row 3 when its %s is changed', async (_column, assignment) => {
    const result = await verifyTampered([`UPDATE audit_logs SET ${assignment} WHERE id = 3`]);
    expect(result).toMatchObject({ ok: false, firstBadId: 3 });
  });

  it('names the changed row even when its hash was recomputed to match', async () => {
    const result = await rolledBack(async (tx) => {
      await tx.execute(sql`UPDATE audit_logs SET user_name = 'Someone Else' WHERE id = 3`);
      const [row2, row3] = (await chainRows(tx)).slice(1, 3);
      await tx.execute(sql`UPDATE audit_logs SET hash = ${auditRowHash(row2!.hash, row3!)} WHERE id = 3`);
      return verifyAuditChain(tx);
    });
    expect(result).toMatchObject({ ok: false, firstBadId: 3 });
  });

  // Ids rise with positions within a chain, so a deleted row's id is known when only its chain's rows lie
  // between its neighbours (always so here: one chain).
  it.each([
    ['a middle row', ['DELETE FROM audit_logs WHERE id = 3'], 3, /row 3 is missing: chain \d+ position 3/],
    ['two middle rows', ['DELETE FROM audit_logs WHERE id IN (3, 4)'], 3, /row 3 is missing: chain \d+ positions 3-4/],
    ['the first row', ['DELETE FROM audit_logs WHERE id = 1'], 1, /row 1 is missing/],
    ['the last row', [`DELETE FROM audit_logs WHERE id = ${ROWS}`], ROWS, /row 6 is missing/],
    ['the last two rows', [`DELETE FROM audit_logs WHERE id >= ${ROWS - 1}`], ROWS - 1, /row 5 is missing: chain \d+ positions 5-6/],
    ['every row', ['DELETE FROM audit_logs'], 1, /positions 1-6/],
    [
      'a middle row, renumbering the ids after it',
      ['DELETE FROM audit_logs WHERE id = 3', ...[4, 5, 6].map((id) => `UPDATE audit_logs SET id = ${id - 1} WHERE id = ${id}`)],
      3,
      /before row 3 is missing/,
    ],
    [
      'a middle row, renumbering ids, positions and the head',
      [
        'DELETE FROM audit_logs WHERE id = 3',
        ...[4, 5, 6].map((id) => `UPDATE audit_logs SET id = ${id - 1}, chain_seq = chain_seq - 1 WHERE id = ${id}`),
        `UPDATE audit_chain_head SET last_seq = 5, last_id = 5 WHERE last_seq = 6`,
      ],
      3,
      /does not link/,
    ],
  ])('names the deleted row: %s', async (_case, statements, id, reason) => {
    const result = await verifyTampered(statements);
    expect(result).toMatchObject({ ok: false, firstBadId: id });
    expect(result.ok ? '' : result.reason).toMatch(reason);
  });

  const copyOf = (id: number, newId: number, newSeq: number): string =>
    `INSERT INTO audit_logs (id, chain, chain_seq, user_id, user_name, action, resource_type, resource_id, patient_id,
       old_values, new_values, ip_address, user_agent, "timestamp", session_id, facility, compliance_flags, prev_hash, hash)
     SELECT ${newId}, chain, ${newSeq}, user_id, 'Forged', action, resource_type, resource_id, patient_id, old_values,
       new_values, ip_address, user_agent, "timestamp", session_id, facility, compliance_flags, prev_hash, repeat('e', 64)
     FROM audit_logs WHERE id = ${id}`;

  it('names a row appended without the writer', async () => {
    expect(await verifyTampered([copyOf(ROWS, ROWS + 1, ROWS + 1)])).toMatchObject({ ok: false, firstBadId: ROWS + 1 });
  });

  it('names a row appended with a well-formed hash but beyond the chain head', async () => {
    const result = await rolledBack(async (tx) => {
      await tx.execute(sql.raw(copyOf(ROWS, ROWS + 1, ROWS + 1)));
      const rows = await chainRows(tx);
      await tx.execute(
        sql`UPDATE audit_logs SET prev_hash = ${rows[ROWS - 1]!.hash}, hash = ${auditRowHash(rows[ROWS - 1]!.hash, rows[ROWS]!)} WHERE id = ${ROWS + 1}`,
      );
      return verifyAuditChain(tx);
    });
    expect(result).toMatchObject({ ok: false, firstBadId: ROWS + 1 });
  });

  it('names a row inserted in the middle, the rows after it shifted, its own hash well-formed', async () => {
    const result = await rolledBack(async (tx) => {
      // Make room at id 4 / position 4 (descending, so the unique indexes never collide), then forge row 4.
      for (let id = ROWS; id >= 4; id--)
        await tx.execute(sql`UPDATE audit_logs SET id = id + 1, chain_seq = chain_seq + 1 WHERE id = ${id}`);
      await tx.execute(sql.raw(copyOf(3, 4, 4)));
      const rows = await chainRows(tx);
      await tx.execute(
        sql`UPDATE audit_logs SET prev_hash = ${rows[2]!.hash}, hash = ${auditRowHash(rows[2]!.hash, rows[3]!)} WHERE id = 4`,
      );
      return verifyAuditChain(tx);
    });
    expect(result).toMatchObject({ ok: false, firstBadId: 4 });
  });

  it('names the last row when it was rewritten with a recomputed hash (its head disagrees)', async () => {
    const result = await rolledBack(async (tx) => {
      await tx.execute(sql`UPDATE audit_logs SET user_name = 'Someone Else' WHERE id = ${ROWS}`);
      const rows = await chainRows(tx);
      await tx.execute(sql`UPDATE audit_logs SET hash = ${auditRowHash(rows[ROWS - 2]!.hash, rows[ROWS - 1]!)} WHERE id = ${ROWS}`);
      return verifyAuditChain(tx);
    });
    expect(result).toMatchObject({ ok: false, firstBadId: ROWS });
  });

  it('cannot see a fully rebuilt chain by itself, but the anchor of an earlier run can', async () => {
    const before = await verifyAuditChain(db);
    if (!before.ok) throw new Error('the fixture should be intact');
    const [plain, anchored] = await rolledBack(async (tx) => {
      await tx.execute(sql`UPDATE audit_logs SET user_name = 'Someone Else' WHERE id = 2`);
      await rehashAll(tx);
      return [await verifyAuditChain(tx), await verifyAuditChain(tx, { anchor: before.anchor })];
    });
    expect(plain).toMatchObject({ ok: true });
    expect(anchored).toMatchObject({ ok: false, firstBadId: ROWS });
    expect(await verifyAuditChain(db, { anchor: before.anchor })).toMatchObject({ ok: true });
    const shortened = await verifyTampered(
      [
        'DELETE FROM audit_logs WHERE id > 3',
        `UPDATE audit_chain_head SET last_seq = 3, last_id = 3, last_hash = (SELECT hash FROM audit_logs WHERE id = 3) WHERE chain = ${chain}`,
      ],
      { anchor: before.anchor },
    );
    expect(shortened).toMatchObject({ ok: false, reason: expect.stringMatching(/shorter than its anchor/) });
    expect(() => parseAnchor('12-zz')).toThrow(/anchor/);
  });

  it('walks several chains and names the lowest bad id among them', async () => {
    const other = (chain % 16) + 1;
    // Even ids become another chain: two valid, interleaved chains (1,3,5 and 2,4,6), everything rehashed.
    const split = async (tx: DbOrTx): Promise<void> => {
      await tx.execute(sql`UPDATE audit_logs SET chain = ${other}, chain_seq = id / 2 WHERE id % 2 = 0`);
      await tx.execute(sql`UPDATE audit_logs SET chain_seq = (id + 1) / 2 WHERE id % 2 = 1`);
      await tx.execute(sql`UPDATE audit_chain_head SET last_seq = 0, last_id = NULL, last_hash = repeat('0', 64)`);
      await rehashAll(tx);
    };
    const results = await rolledBack(async (tx) => {
      await split(tx);
      const intact = await verifyAuditChain(tx);
      await tx.execute(sql`UPDATE audit_logs SET user_agent = 'x' WHERE id IN (2, 5)`);
      const two = await verifyAuditChain(tx);
      await tx.execute(sql`UPDATE audit_logs SET user_agent = ${'vitest'} WHERE id = 2`);
      const one = await verifyAuditChain(tx);
      return { intact, two, one };
    });
    expect(results.intact).toMatchObject({ ok: true, rows: ROWS });
    expect(results.two).toMatchObject({ ok: false, firstBadId: 2 });
    expect(results.one).toMatchObject({ ok: false, firstBadId: 5 });
    const deleted = async (id: number): Promise<AuditVerifyResult> =>
      rolledBack(async (tx) => {
        await split(tx);
        await tx.execute(sql`DELETE FROM audit_logs WHERE id = ${id}`);
        return verifyAuditChain(tx);
      });
    // With the other chain's rows in between, a middle row's id cannot be known: the next row is named.
    expect(await deleted(4)).toMatchObject({ ok: false, firstBadId: 6, reason: expect.stringMatching(/before row 6 is missing/) });
    // The end of a chain: its head knows the last id.
    expect(await deleted(5)).toMatchObject({ ok: false, firstBadId: 5, reason: expect.stringMatching(/end of chain/) });
  });

  it('reports missing chain heads', async () => {
    expect(await verifyTampered(['DELETE FROM audit_chain_head'])).toMatchObject({ ok: false, firstBadId: 0 });
    expect(await verifyTampered([`DELETE FROM audit_chain_head WHERE chain = ${chain}`])).toMatchObject({ ok: false, firstBadId: 1 });
  });

  it('is left valid by all of the above (every tampering was rolled back)', async () => {
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: ROWS });
  });
});
