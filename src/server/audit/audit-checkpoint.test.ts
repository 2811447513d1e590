// Audit checkpoints and the signed digest (issue 10 item 3; docs/decisions/012-audit-checkpoints-and-digest.md):
// deleting whole chains with their heads, or truncating a chain and rewinding its head, leaves every remaining row
// linked, so only a record of the chain count and heads kept elsewhere names it.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { auditEntry, query, rehashAll, spreadOverAllChains } from '../test/audit-fixtures';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { writeCheckpoint } from './audit-checkpoint';
import { checkpointOfDigest, createDigest, DigestRefused } from './audit-digest';
import { verifyAuditChain, type AuditVerifyResult, type VerifyOptions } from './audit-verify';
import { writeAudit } from './audit-writer';

let database: TestDatabase;
let db: Db;
const CHAINS = 16;
const PER_CHAIN = 3;

class Rollback extends Error {}
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
const verifyTampered = (statements: string[], options: VerifyOptions = {}): Promise<AuditVerifyResult> =>
  rolledBack(async (tx) => {
    for (const s of statements) await tx.execute(sql.raw(s));
    return verifyAuditChain(tx, options);
  });

// The attack of issue 10: every chain but one deleted with its head; and a chain cut short with its head rewound.
const DELETE_15_CHAINS = ['DELETE FROM audit_logs WHERE chain > 1', 'DELETE FROM audit_chain_head WHERE chain > 1'];
const TRUNCATE_CHAIN_5 = [
  `DELETE FROM audit_logs WHERE chain = 5 AND chain_seq > 1`,
  `UPDATE audit_chain_head h SET last_seq = 1, last_id = a.id, last_hash = a.hash, prev_hash = a.prev_hash
     FROM audit_logs a WHERE h.chain = 5 AND a.chain = 5 AND a.chain_seq = 1`,
];

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
  await db.transaction(async (tx) => {
    for (let i = 0; i < CHAINS * PER_CHAIN; i++) await writeAudit(tx, auditEntry({ resourceId: i, patientId: 1000 + i }));
    await spreadOverAllChains(tx);
  });
}, 60_000);
afterAll(async () => {
  await database?.dispose();
});

describe('audit checkpoint', () => {
  it('the fixture is 16 intact chains', async () => {
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: CHAINS * PER_CHAIN });
    const [n] = await query<{ n: number }>(db, sql`SELECT count(DISTINCT chain)::int AS n FROM audit_logs`);
    expect(n!.n).toBe(CHAINS);
  });

  it('without a checkpoint, deleting 15 of 16 chains with their heads passes (the hole of issue 10)', async () => {
    expect(await verifyTampered(['DELETE FROM audit_checkpoints', ...DELETE_15_CHAINS])).toMatchObject({ ok: true });
  });

  it('an anchor taken before names 15 of 16 chains deleted with their heads and every checkpoint (issue 21 item 11)', async () => {
    const before = await verifyAuditChain(db, { checkpoint: null });
    expect(before.ok).toBe(true);
    const anchor = before.ok ? before.anchor : '';
    const result = await verifyTampered(['DELETE FROM audit_checkpoints', ...DELETE_15_CHAINS], { anchor });
    expect(result).toMatchObject({ ok: false, firstBadId: 0 });
    expect(result.ok ? '' : result.reason).toMatch(
      /^15 of 16 audit chains were deleted \(chains 2, 3, .*16, with their heads\): the anchor recorded 16 chains, 1 remain$/,
    );
  });

  it('names 15 of 16 chains deleted with their heads', async () => {
    await writeCheckpoint(db);
    const result = await verifyTampered(DELETE_15_CHAINS);
    expect(result).toMatchObject({ ok: false, firstBadId: 0 });
    expect(result.ok ? '' : result.reason).toMatch(
      /^15 of 16 audit chains were deleted \(chains 2, 3, .*16, with their heads\): checkpoint \d+ of .* recorded 16 chains, 1 remain$/,
    );
  });

  it('names a truncated chain whose head was rewound', async () => {
    await writeCheckpoint(db);
    const result = await verifyTampered(TRUNCATE_CHAIN_5);
    expect(result).toMatchObject({ ok: false });
    expect(result.ok ? '' : result.reason).toMatch(/^chain 5 was truncated: checkpoint \d+ of .* recorded position 3, it now ends at 1$/);
  });

  it('names a chain rebuilt after the checkpoint (row at the recorded position has another hash)', async () => {
    await writeCheckpoint(db);
    const result = await rolledBack(async (tx) => {
      await tx.execute(sql`UPDATE audit_logs SET user_name = 'Someone Else' WHERE chain = 7 AND chain_seq = 3`);
      await rehashAll(tx);
      return verifyAuditChain(tx);
    });
    expect(result).toMatchObject({ ok: false });
    expect(result.ok ? '' : result.reason).toMatch(/chain 7 was rebuilt/);
  });

  it('accepts chains that grew after the checkpoint', async () => {
    await writeCheckpoint(db);
    await db.transaction((tx) => writeAudit(tx, auditEntry({ resourceId: 'later' })));
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: CHAINS * PER_CHAIN + 1 });
  });
});

describe('signed digest', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');

  it('a digest verifies with its key and names chains deleted after it, even when the checkpoints were deleted too', async () => {
    const digest = await createDigest(db, privateKey);
    const checkpoint = checkpointOfDigest(JSON.stringify(digest), publicKey);
    expect(checkpoint.chainCount).toBe(CHAINS);
    expect(await verifyAuditChain(db, { checkpoint })).toMatchObject({ ok: true });
    const result = await verifyTampered(['DELETE FROM audit_checkpoints', ...DELETE_15_CHAINS], { checkpoint });
    expect(result.ok ? '' : result.reason).toMatch(/^15 of 16 audit chains were deleted .*: the digest of /);
  });

  it('refuses a digest whose signature was tampered with, or whose heads were changed', async () => {
    const digest = await createDigest(db, privateKey);
    const sig = Buffer.from(digest.signature, 'base64');
    sig[0] = sig[0]! ^ 1;
    expect(() => checkpointOfDigest(JSON.stringify({ ...digest, signature: sig.toString('base64') }), publicKey)).toThrow(DigestRefused);
    const edited = { ...digest, heads: digest.heads.map((h) => (h.chain === 5 ? { ...h, seq: 1 } : h)) };
    expect(() => checkpointOfDigest(JSON.stringify(edited), publicKey)).toThrow(/signature does not match/);
    const other = generateKeyPairSync('ed25519').publicKey;
    expect(() => checkpointOfDigest(JSON.stringify(digest), other)).toThrow(DigestRefused);
    expect(() => checkpointOfDigest('{"format":"x"}', publicKey)).toThrow(/not an audit digest/);
  });
});
