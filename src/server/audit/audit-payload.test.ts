// Audit payloads out of the chain (decision 042) on a real database: sealed at rest, chained as a salted hash, checked
// by the verifier (a changed ciphertext, payload hash or a deleted payload row is named), shreddable with the chain
// still valid, and guarded by migration 0043's trigger.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditEntry, query, rehashAll } from '../test/audit-fixtures';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { auditRowCanonical, type AuditChainRow } from './audit-hash';
import { configureAuditPayloads, payloadCanonical, payloadHashOf } from './audit-payload';
import { shredAuditPayload } from './audit-shred';
import { verifyAuditChain } from './audit-verify';
import { writeAudit } from './audit-writer';
import { secretBox } from '../security/secret-box';

const KEY = { value: randomBytes(32).toString('base64'), file: '', name: 'AUDIT_PAYLOAD_KEY' };
const SECRET = 'Tenofovir 300 mg nightly for Ndeshipanda';
const before = { id: 5, patientId: 42, name: 'Tenofovir', dosage: '300 mg', frequency: 'daily', notes: 'first line' };
const after = { ...before, frequency: 'nightly', notes: SECRET };
const auditor = { userId: 'auditor-1', userName: 'Aina Auditor', facility: null };

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
});
afterAll(async () => {
  configureAuditPayloads(null);
  await database?.dispose();
});
beforeEach(() => configureAuditPayloads(KEY));

/** A change of a medication, its clinical content in the payload, its changed field names in the chain. */
const change = () =>
  auditEntry({
    action: 'UPDATE',
    resourceType: 'MEDICATION',
    resourceId: 5,
    oldValues: { version: 1 },
    newValues: { changed: ['frequency', 'notes'], version: 2 },
    payload: { oldValues: before, newValues: after },
  });

/** Runs `statements` with migration 0043's payload guard switched off (as the owner can), inside a rolled-back transaction. */
async function verifyTampered(...statements: ReturnType<typeof sql>[]) {
  let result: Awaited<ReturnType<typeof verifyAuditChain>> | undefined;
  await db
    .transaction(async (tx) => {
      await tx.execute(sql`ALTER TABLE audit_payloads DISABLE TRIGGER audit_payloads_shred_only`);
      for (const s of statements) await tx.execute(s);
      result = await verifyAuditChain(tx);
      tx.rollback();
    })
    .catch((e: unknown) => {
      if (!(e instanceof Error && /rollback/i.test(e.message))) throw e;
    });
  return result!;
}

describe('writing an audit row with a payload', () => {
  let id: number;
  beforeAll(async () => {
    configureAuditPayloads(KEY);
    await writeAudit(db, auditEntry()); // a row without a payload before it
    id = await writeAudit(db, change());
  });

  it('chains the salted payload hash and seals the payload and its salt: no plaintext anywhere in the database', async () => {
    const [row] = await query<{ payload_hash: string; old_values: unknown; new_values: unknown }>(
      db,
      sql`SELECT payload_hash, old_values, new_values FROM audit_logs WHERE id = ${id}`,
    );
    expect(row!.payload_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.new_values).toEqual({ changed: ['frequency', 'notes'], version: 2 });
    const [stored] = await query<{ salt: string; ciphertext: string }>(
      db,
      sql`SELECT salt, ciphertext FROM audit_payloads WHERE audit_id = ${id}`,
    );
    expect(stored!.ciphertext).toMatch(/^v1\./);
    expect(stored!.salt).toMatch(/^v1\./);
    const dump = await query<{ t: string }>(
      db,
      sql`SELECT (SELECT string_agg(p::text, ' ') FROM audit_payloads p) || (SELECT string_agg(a::text, ' ') FROM audit_logs a) AS t`,
    );
    expect(dump[0]!.t).not.toContain('Tenofovir');
    expect(dump[0]!.t).not.toContain('Ndeshipanda');
    // The hash is sha256(salt hex || canonical payload), under the key kept outside the database.
    const box = secretBox(KEY);
    expect(payloadHashOf(box.open(stored!.salt), box.open(stored!.ciphertext))).toBe(row!.payload_hash);
    expect(box.open(stored!.ciphertext)).toBe(payloadCanonical({ oldValues: before, newValues: after }));
  });

  it('passes the verifier, which opens the payload and counts it', async () => {
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, payloads: { stored: 1, shredded: 0, opened: true } });
  });

  it('without the key, the verifier checks only that the payload is there, and says so', async () => {
    expect(await verifyAuditChain(db, { payloadKey: null })).toMatchObject({ ok: true, payloads: { stored: 1, opened: false } });
  });

  it('names a changed ciphertext: another valid payload sealed in its place, or garbage', async () => {
    const other = secretBox(KEY).seal(payloadCanonical({ oldValues: before, newValues: { ...after, notes: 'changed' } }));
    const swapped = await verifyTampered(sql`UPDATE audit_payloads SET ciphertext = ${other} WHERE audit_id = ${id}`);
    expect(swapped).toEqual({ ok: false, firstBadId: id, reason: `the payload of row ${id} does not match its payload hash (changed)` });
    const garbage = await verifyTampered(sql`UPDATE audit_payloads SET ciphertext = 'v1.AAAA.BBBB.CCCC' WHERE audit_id = ${id}`);
    expect(garbage).toMatchObject({ ok: false, firstBadId: id, reason: expect.stringMatching(/does not open with the audit payload key/) });
  });

  it('names a changed payload_hash, also when the chain was rehashed around it', async () => {
    const changed = sql`UPDATE audit_logs SET payload_hash = ${'f'.repeat(64)} WHERE id = ${id}`;
    expect(await verifyTampered(changed)).toMatchObject({
      ok: false,
      firstBadId: id,
      reason: `row ${id} does not match its hash (changed)`,
    });
    let rehashed: Awaited<ReturnType<typeof verifyAuditChain>> | undefined;
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`DELETE FROM audit_checkpoints`);
        await tx.execute(changed);
        await rehashAll(tx);
        rehashed = await verifyAuditChain(tx);
        tx.rollback();
      })
      .catch(() => undefined);
    expect(rehashed).toEqual({ ok: false, firstBadId: id, reason: `the payload of row ${id} does not match its payload hash (changed)` });
  });

  it('names a deleted payload row, and a payload row inserted for a row without a payload hash', async () => {
    expect(await verifyTampered(sql`DELETE FROM audit_payloads WHERE audit_id = ${id}`)).toEqual({
      ok: false,
      firstBadId: id,
      reason: `the payload of row ${id} is missing (deleted)`,
    });
    const inserted = await verifyTampered(sql`INSERT INTO audit_payloads (audit_id, salt, ciphertext) VALUES (${id - 1}, 'v1.a', 'v1.b')`);
    expect(inserted).toMatchObject({
      ok: false,
      firstBadId: id - 1,
      reason: expect.stringMatching(/belongs to no row with a payload hash/),
    });
  });

  it('refuses to store a payload without a key, and writes no row', async () => {
    configureAuditPayloads(null);
    const [{ n: rowsBefore }] = (await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM audit_logs`)) as [{ n: number }];
    await expect(db.transaction((tx) => writeAudit(tx, change()))).rejects.toThrow(/audit payload key not configured/);
    await writeAudit(db, auditEntry()); // rows without a payload need no key
    expect((await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM audit_logs`))[0]!.n).toBe(rowsBefore + 1);
  });
});

describe('the chained canonical row', () => {
  const row: AuditChainRow = {
    id: 1,
    chain: 1,
    chainSeq: 1,
    timestamp: '2026-11-26T08:00:00.000000Z',
    userId: 'u',
    userName: 'U',
    action: 'VIEW',
    resourceType: 'PATIENT',
    resourceId: '1',
    patientId: 1,
    oldValues: null,
    newValues: null,
    ipAddress: null,
    userAgent: null,
    sessionId: null,
    facility: null,
    complianceFlags: null,
  };
  it('names payloadHash only when there is one, so rows without one hash exactly as before migration 0043', () => {
    const plain = auditRowCanonical(row);
    expect(plain).not.toContain('payloadHash');
    expect(auditRowCanonical({ ...row, payloadHash: null })).toBe(plain);
    expect(auditRowCanonical({ ...row, payloadHash: 'ab' })).toBe(plain.replace(',"resourceId"', ',"payloadHash":"ab","resourceId"'));
  });
});

describe('shredding a payload', () => {
  let id: number;
  beforeAll(async () => {
    configureAuditPayloads(KEY);
    id = await writeAudit(db, change());
  });

  it('removes salt and ciphertext, keeps the row, records who and why, and the verifier still passes', async () => {
    const verified = await verifyAuditChain(db);
    expect(verified.ok).toBe(true);
    const stored = verified.ok ? verified.payloads.stored : 0;
    expect(await shredAuditPayload(db, id, { by: auditor, reason: 'erasure request 2026-114' })).toBe('SHREDDED');
    const [row] = await query(
      db,
      sql`SELECT salt, ciphertext, shredded_by, shred_reason, shredded_at IS NOT NULL AS at FROM audit_payloads WHERE audit_id = ${id}`,
    );
    expect(row).toEqual({ salt: null, ciphertext: null, shredded_by: 'auditor-1', shred_reason: 'erasure request 2026-114', at: true });
    const [event] = await query(
      db,
      sql`SELECT action, resource_type, resource_id, user_id, new_values FROM audit_logs ORDER BY id DESC LIMIT 1`,
    );
    expect(event).toEqual({
      action: 'UPDATE',
      resource_type: 'AUDIT_PAYLOAD',
      resource_id: String(id),
      user_id: 'auditor-1',
      new_values: { shredded: true, reason: 'erasure request 2026-114' },
    });
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, payloads: { stored, shredded: 1, opened: true } });
  });

  it('is done once: again ALREADY_SHREDDED, a row without a payload NO_PAYLOAD, no reason refused', async () => {
    expect(await shredAuditPayload(db, id, { by: auditor, reason: 'again' })).toBe('ALREADY_SHREDDED');
    expect(await shredAuditPayload(db, 1, { by: auditor, reason: 'none' })).toBe('NO_PAYLOAD');
    await expect(shredAuditPayload(db, id, { by: auditor, reason: ' ' })).rejects.toThrow(/reason/);
  });

  it('the trigger refuses a DELETE, a TRUNCATE and any UPDATE but a shred, for the owner too', async () => {
    const live = await writeAudit(db, change());
    const refused = async (statement: ReturnType<typeof sql>): Promise<string | undefined> => {
      try {
        await db.execute(statement);
        return undefined;
      } catch (e) {
        const err = e as { code?: string; cause?: { code?: string } };
        return err.cause?.code ?? err.code;
      }
    };
    expect(await refused(sql`DELETE FROM audit_payloads WHERE audit_id = ${id}`)).toBe('42501');
    expect(await refused(sql`TRUNCATE audit_payloads`)).toBe('42501');
    expect(
      await refused(sql`UPDATE audit_payloads SET ciphertext = 'v1.x', salt = 'v1.y', shredded_at = NULL WHERE audit_id = ${id}`),
    ).toBe('42501');
    expect(await refused(sql`UPDATE audit_payloads SET ciphertext = 'v1.x' WHERE audit_id = ${live}`)).toBe('42501');
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
  });
});
