import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { auditEntry, query } from '../test/audit-fixtures';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { auditRowHash, GENESIS_HASH, type AuditChainRow } from './audit-hash';
import { verifyAuditChain, type AuditVerifyResult, type VerifyOptions } from './audit-verify';
import { writeAudit } from './audit-writer';

let database: TestDatabase;
let db: Db;
const ROWS = 6;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
  for (let i = 1; i <= ROWS; i++) {
    await db.transaction((tx) =>
      writeAudit(tx, auditEntry({
        action: i === 3 ? 'UPDATE' : 'VIEW',
        resourceType: i === 3 ? 'MEDICATION' : 'PATIENT',
        resourceId: i,
        patientId: 100 + i,
        oldValues: { dosage: '250mg daily' },
        newValues: { dosage: `${i}00mg daily` },
        complianceFlags: { type: 'BREAK_GLASS', reason: `Emergency ${i}` },
      })),
    );
  }
});
afterAll(async () => {
  await database?.dispose();
});

class Rollback extends Error {}

/** Applies the tampering in a transaction, verifies inside it, then rolls everything back. */
async function verifyTampered(statements: string[], options: VerifyOptions = {}): Promise<AuditVerifyResult> {
  let result: AuditVerifyResult | undefined;
  await db
    .transaction(async (tx) => {
      for (const s of statements) await tx.execute(sql.raw(s));
      result = await verifyAuditChain(tx, options);
      throw new Rollback();
    })
    .catch((e: unknown) => {
      if (!(e instanceof Rollback)) throw e;
    });
  return result!;
}

type StoredRow = AuditChainRow & { hash: string };
async function chainRows(tx: DbOrTx): Promise<StoredRow[]> {
  return query<StoredRow>(
    tx,
    sql`SELECT id, user_id AS "userId", user_name AS "userName", action, resource_type AS "resourceType",
      resource_id AS "resourceId", patient_id AS "patientId", old_values AS "oldValues", new_values AS "newValues",
      ip_address AS "ipAddress", user_agent AS "userAgent", session_id AS "sessionId", facility,
      compliance_flags AS "complianceFlags", hash,
      to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "timestamp"
      FROM audit_logs ORDER BY id`,
  );
}

/** What an attacker who knows the algorithm can do: recompute every hash from a row on, and the head. */
async function rehashFrom(tx: DbOrTx, fromId: number): Promise<void> {
  let prev = GENESIS_HASH;
  for (const row of await chainRows(tx)) {
    if (row.id >= fromId) {
      const hash = auditRowHash(prev, row);
      await tx.execute(sql`UPDATE audit_logs SET prev_hash = ${prev}, hash = ${hash} WHERE id = ${row.id}`);
      row.hash = hash;
    }
    prev = row.hash;
  }
  await tx.execute(sql`UPDATE audit_chain_head SET last_hash = ${prev}`);
}

describe('verifyAuditChain', () => {
  it('accepts the untouched chain, in batches, reporting progress', async () => {
    const progress: number[] = [];
    const result = await verifyAuditChain(db, { batchSize: 4, onProgress: (checked) => progress.push(checked) });
    expect(result).toMatchObject({ ok: true, rows: ROWS, lastId: ROWS });
    expect(progress).toEqual([4, 6]);
  });

  it('accepts an empty chain', async () => {
    expect(await verifyTampered(['DELETE FROM audit_logs', `UPDATE audit_chain_head SET last_id = 0, last_hash = repeat('0', 64)`])).toEqual({
      ok: true,
      rows: 0,
      lastId: 0,
      lastHash: GENESIS_HASH,
    });
  });

  it.each([
    ['id', 'id = 1003'],
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
    let result: AuditVerifyResult | undefined;
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`UPDATE audit_logs SET user_name = 'Someone Else' WHERE id = 3`);
        const row = (await chainRows(tx)).find((r) => r.id === 3)!;
        const [prev] = await query<{ hash: string }>(tx, sql`SELECT hash FROM audit_logs WHERE id = 2`);
        await tx.execute(sql`UPDATE audit_logs SET hash = ${auditRowHash(prev!.hash, row)} WHERE id = 3`);
        result = await verifyAuditChain(tx);
        throw new Rollback();
      })
      .catch((e: unknown) => {
        if (!(e instanceof Rollback)) throw e;
      });
    expect(result).toMatchObject({ ok: false, firstBadId: 3 });
  });

  it.each([
    ['a middle row', ['DELETE FROM audit_logs WHERE id = 3'], 3],
    ['two middle rows', ['DELETE FROM audit_logs WHERE id IN (3, 4)'], 3],
    ['the first row', ['DELETE FROM audit_logs WHERE id = 1'], 1],
    ['the last row', [`DELETE FROM audit_logs WHERE id = ${ROWS}`], ROWS],
    ['every row', ['DELETE FROM audit_logs'], 1],
    ['a middle row, renumbering the rest', ['DELETE FROM audit_logs WHERE id = 3', ...[4, 5, 6].map((id) => `UPDATE audit_logs SET id = ${id - 1} WHERE id = ${id}`)], 3],
  ])('names the deleted row: %s', async (_case, statements, id) => {
    expect(await verifyTampered(statements)).toMatchObject({ ok: false, firstBadId: id });
  });

  const copyOf = (id: number, newId: number, hash: string): string =>
    `INSERT INTO audit_logs (id, user_id, user_name, action, resource_type, resource_id, patient_id, old_values, new_values,
       ip_address, user_agent, "timestamp", session_id, facility, compliance_flags, prev_hash, hash)
     SELECT ${newId}, user_id, 'Forged', action, resource_type, resource_id, patient_id, old_values, new_values,
       ip_address, user_agent, "timestamp", session_id, facility, compliance_flags, prev_hash, ${hash}
     FROM audit_logs WHERE id = ${id}`;

  it('names a row appended without the writer', async () => {
    const result = await verifyTampered([copyOf(ROWS, ROWS + 1, `repeat('e', 64)`)]);
    expect(result).toMatchObject({ ok: false, firstBadId: ROWS + 1 });
  });

  it('names a row appended with a well-formed hash but outside the chain head', async () => {
    let result: AuditVerifyResult | undefined;
    await db
      .transaction(async (tx) => {
        await tx.execute(sql.raw(copyOf(ROWS, ROWS + 1, `repeat('e', 64)`)));
        const rows = await chainRows(tx);
        const forged = rows[ROWS]!;
        await tx.execute(sql`UPDATE audit_logs SET prev_hash = ${rows[ROWS - 1]!.hash}, hash = ${auditRowHash(rows[ROWS - 1]!.hash, forged)} WHERE id = ${ROWS + 1}`);
        result = await verifyAuditChain(tx);
        throw new Rollback();
      })
      .catch((e: unknown) => {
        if (!(e instanceof Rollback)) throw e;
      });
    expect(result).toMatchObject({ ok: false, firstBadId: ROWS + 1 });
  });

  it('names a row inserted in the middle, later rows renumbered, its own hash well-formed', async () => {
    let result: AuditVerifyResult | undefined;
    await db
      .transaction(async (tx) => {
        // Make room at id 4 (descending, so the primary key never collides), then insert a forged row 4.
        for (let id = ROWS; id >= 4; id--) await tx.execute(sql`UPDATE audit_logs SET id = id + 1 WHERE id = ${id}`);
        await tx.execute(sql.raw(copyOf(3, 4, `repeat('e', 64)`)));
        const rows = await chainRows(tx);
        await tx.execute(sql`UPDATE audit_logs SET prev_hash = ${rows[2]!.hash}, hash = ${auditRowHash(rows[2]!.hash, rows[3]!)} WHERE id = 4`);
        result = await verifyAuditChain(tx);
        throw new Rollback();
      })
      .catch((e: unknown) => {
        if (!(e instanceof Rollback)) throw e;
      });
    expect(result).toMatchObject({ ok: false, firstBadId: 4 });
  });

  it('names the last row when it was rewritten with a recomputed hash (the head disagrees)', async () => {
    let result: AuditVerifyResult | undefined;
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`UPDATE audit_logs SET user_name = 'Someone Else' WHERE id = ${ROWS}`);
        const rows = await chainRows(tx);
        await tx.execute(sql`UPDATE audit_logs SET hash = ${auditRowHash(rows[ROWS - 2]!.hash, rows[ROWS - 1]!)} WHERE id = ${ROWS}`);
        result = await verifyAuditChain(tx);
        throw new Rollback();
      })
      .catch((e: unknown) => {
        if (!(e instanceof Rollback)) throw e;
      });
    expect(result).toMatchObject({ ok: false, firstBadId: ROWS });
  });

  it('cannot see a fully rebuilt chain by itself, but an anchor recorded earlier can', async () => {
    const before = await verifyAuditChain(db);
    if (!before.ok) throw new Error('chain should be valid');
    const rows = await chainRows(db);
    const anchor = { id: 4, hash: rows[3]!.hash };
    let plain: AuditVerifyResult | undefined;
    let anchored: AuditVerifyResult | undefined;
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`UPDATE audit_logs SET user_name = 'Someone Else' WHERE id = 2`);
        await rehashFrom(tx, 2);
        plain = await verifyAuditChain(tx);
        anchored = await verifyAuditChain(tx, { anchor });
        throw new Rollback();
      })
      .catch((e: unknown) => {
        if (!(e instanceof Rollback)) throw e;
      });
    expect(plain).toMatchObject({ ok: true });
    expect(anchored).toMatchObject({ ok: false, firstBadId: 4 });
    expect(await verifyAuditChain(db, { anchor })).toMatchObject({ ok: true });
    expect(await verifyTampered([`DELETE FROM audit_logs WHERE id > 3`, `UPDATE audit_chain_head SET last_id = 3, last_hash = (SELECT hash FROM audit_logs WHERE id = 3)`], { anchor })).toMatchObject({
      ok: false,
      firstBadId: 4,
    });
  });

  it('reports a missing chain head', async () => {
    expect(await verifyTampered(['DELETE FROM audit_chain_head'])).toMatchObject({ ok: false, firstBadId: 0 });
  });

  it('is left valid by all of the above (every tampering was rolled back)', async () => {
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: ROWS });
  });
});
