// The audit log by month (decision 057), through the real parts: rows in their month's partition, the chains running on
// across months, a past month archived (signed checkpoint, file, detach) and its file checked, the live chains checked
// from the archived month's checkpoint, and each refusal: the current month, a month out of order, a detach without its
// checkpoint, and a changed, cut or wrongly signed file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditEntry, query, rehashAll, spreadOverAllChains } from '../test/audit-fixtures';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { ArchiveRefused, archiveMonth, detachArchivedMonth, partitionOf } from './audit-archive';
import { verifyArchiveFile } from './audit-archive-file';
import { ensureAuditPartitions, startAuditPartitions } from './audit-partitions';
import { verifyAuditChain } from './audit-verify';
import { writeAudit } from './audit-writer';

let database: TestDatabase;
let db: Db;
const dir = mkdtempSync(path.join(tmpdir(), 'nhr-audit-archive-'));
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const now = new Date();
const thisMonth = now.toISOString().slice(0, 7);
const JAN = '2025-01';
const FEB = '2025-02';
const janFile = path.join(dir, 'audit-2025-01.jsonl');

const partitionsOfRows = (): Promise<{ partition: string; n: number }[]> =>
  query(db, sql`SELECT tableoid::regclass::text AS partition, count(*)::int AS n FROM audit_logs GROUP BY 1 ORDER BY 1`);

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ArchiveRefused) return error.message;
    throw error;
  }
  throw new Error('not refused');
}

/** The file with `change` applied to its lines (the last is the checkpoint), written beside it. */
function changedCopy(name: string, change: (lines: string[]) => string[]): string {
  const lines = readFileSync(janFile, 'utf8').split('\n').slice(0, -1);
  const file = path.join(dir, name);
  writeFileSync(file, `${change(lines).join('\n')}\n`);
  return file;
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
  await db.execute(sql`SELECT nhr_audit_create_partition(${`${JAN}-01`}::date), nhr_audit_create_partition(${`${FEB}-01`}::date)`);
  for (let i = 0; i < 100; i++) await writeAudit(db, auditEntry({ resourceId: i }));
  // The first 70 rows go back to the last seconds of January and the first of February, in id order; then the chains
  // are spread over all 16 and hashed again, as 16 connections writing across the month's end would have left them.
  await db.execute(sql`
    WITH n AS (SELECT id, row_number() OVER (ORDER BY id) AS k FROM audit_logs)
    UPDATE audit_logs a SET "timestamp" = '2025-01-31T23:59:40Z'::timestamptz + n.k * interval '500 milliseconds'
    FROM n WHERE n.id = a.id AND n.k <= 70`);
  await spreadOverAllChains(db);
}, 60_000);
afterAll(async () => {
  await database?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('the audit log partitioned by month', () => {
  it('puts each row in its month, and the writer in this month', async () => {
    await writeAudit(db, auditEntry({ action: 'SEARCH' }));
    expect(await partitionsOfRows()).toEqual([
      { partition: partitionOf(JAN), n: 39 },
      { partition: partitionOf(FEB), n: 31 },
      { partition: partitionOf(thisMonth), n: 31 },
    ]);
  });

  it('has the partitions of this month and the months ahead, and creates none twice', async () => {
    const names = await query<{ name: string }>(
      db,
      sql`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'audit_logs'::regclass`,
    );
    const ahead = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, 1)).toISOString().slice(0, 7);
    expect(names.map((r) => r.name)).toEqual(expect.arrayContaining([partitionOf(thisMonth), partitionOf(ahead)]));
    expect(await ensureAuditPartitions(db)).toBe(0);
    expect(await ensureAuditPartitions(db, 4)).toBe(1);
  });

  it('makes a missing month ahead at start, and says so', async () => {
    const ahead = partitionOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, 1)).toISOString().slice(0, 7));
    await db.execute(sql`DROP TABLE ${sql.identifier(ahead)}`);
    const logged: string[] = [];
    const stop = await startAuditPartitions(db, { info: (_o, msg) => logged.push(msg), error: (_o, msg) => logged.push(`error: ${msg}`) });
    stop();
    expect(logged).toEqual(['audit log partitions created for the months ahead']);
    expect(await query(db, sql`SELECT to_regclass(${ahead}) IS NOT NULL AS made`)).toEqual([{ made: true }]);
  });

  it('verifies the chains across the months', async () => {
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: 101, archivedThrough: null });
  });
});

describe('archiving a month', () => {
  it('refuses the current month, a month to come, and a month that is not one', async () => {
    expect(await refusal(archiveMonth(db, { month: thisMonth, out: janFile, privateKey }))).toMatch(/is not over yet/);
    expect(await refusal(archiveMonth(db, { month: '2999-01', out: janFile, privateKey }))).toMatch(/is not over yet/);
    expect(await refusal(archiveMonth(db, { month: '2025-13', out: janFile, privateKey }))).toMatch(/is not a month/);
    expect(await refusal(detachArchivedMonth(db, thisMonth))).toMatch(/is not over yet/);
  });

  it('refuses a month while an older one is still in the database', async () => {
    expect(await refusal(archiveMonth(db, { month: FEB, out: janFile, privateKey }))).toBe(
      `${JAN} is still in the database: archive the months oldest first`,
    );
  });

  it('refuses a file that exists already, and leaves it as it was', async () => {
    const existing = path.join(dir, 'existing.jsonl');
    writeFileSync(existing, 'kept\n');
    expect(await refusal(archiveMonth(db, { month: JAN, out: existing, privateKey }))).toBe(
      `${existing} exists already: give the archive a new file`,
    );
    expect(readFileSync(existing, 'utf8')).toBe('kept\n');
  });

  it('refuses to detach a partition without its signed checkpoint', async () => {
    expect(await refusal(detachArchivedMonth(db, JAN))).toMatch(/^2025-01 has no signed archive checkpoint: refusing to detach/);
    expect(await partitionsOfRows()).toContainEqual({ partition: partitionOf(JAN), n: 39 });
  });

  it('writes the signed checkpoint and the file, then detaches the month', async () => {
    const result = await archiveMonth(db, { month: JAN, out: janFile, privateKey, batchSize: 4 });
    expect(result.checkpoint).toMatchObject({ month: JAN, rows: 39, partition: partitionOf(JAN) });
    expect(result.checkpoint.chains).toHaveLength(16);
    const [stored] = await query<{ rows: number; detached: boolean }>(
      db,
      sql`SELECT (checkpoint ->> 'rows')::int AS rows, detached_at IS NOT NULL AS detached FROM audit_archives WHERE month = ${JAN}`,
    );
    expect(stored).toEqual({ rows: 39, detached: true });
    expect((await partitionsOfRows()).map((p) => p.partition)).not.toContain(partitionOf(JAN));
    // Detached, not dropped: the operator drops it.
    expect(await query(db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(partitionOf(JAN))}`)).toEqual([{ n: 39 }]);
  });

  it('verifies the archived file against its checkpoint', async () => {
    expect(await verifyArchiveFile(janFile, publicKey)).toMatchObject({ ok: true, checkpoint: { month: JAN, rows: 39 } });
  });

  it('verifies the live chains from the archived month on', async () => {
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: 62, archivedThrough: JAN });
  });

  it('refuses the month again once archived', async () => {
    expect(await refusal(archiveMonth(db, { month: JAN, out: path.join(dir, 'again.jsonl'), privateKey }))).toMatch(/archived already/);
  });

  it('archives the next month, its chains running on from the first', async () => {
    const febFile = path.join(dir, 'audit-2025-02.jsonl');
    const { checkpoint } = await archiveMonth(db, { month: FEB, out: febFile, privateKey });
    expect(checkpoint.rows).toBe(31);
    expect(await verifyArchiveFile(febFile, publicKey)).toMatchObject({ ok: true });
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: 31, archivedThrough: FEB });
  });

  it('still names a row changed in the live months', async () => {
    const [row] = await query<{ id: number }>(db, sql`SELECT min(id)::float8 AS id FROM audit_logs`);
    await db.execute(sql`UPDATE audit_logs SET user_name = 'Someone else' WHERE id = ${row!.id}`);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, firstBadId: row!.id });
    await db.execute(sql`UPDATE audit_logs SET user_name = 'Ndapewa Nghipondoka' WHERE id = ${row!.id}`);
  });
});

describe('a changed archive file', () => {
  it('with one changed byte in a row', async () => {
    const file = changedCopy('byte.jsonl', (lines) => lines.map((l, i) => (i === 3 ? l.replace('Ndapewa', 'Ndapewb') : l)));
    const id = (JSON.parse(readFileSync(janFile, 'utf8').split('\n')[3]!) as { id: number }).id;
    expect(await verifyArchiveFile(file, publicKey)).toEqual({ ok: false, reason: `row ${id} does not match its hash (changed)` });
  });

  it('with a row removed', async () => {
    // Line 16 is the second row of its chain in the month (16 chains, rows spread in id order); a third follows it.
    const lines = readFileSync(janFile, 'utf8').split('\n');
    const removed = JSON.parse(lines[16]!) as { chain: number; chainSeq: number };
    const next = JSON.parse(lines[32]!) as { chain: number; id: number };
    expect(next.chain).toBe(removed.chain);
    const file = changedCopy('removed.jsonl', (l) => l.filter((_, i) => i !== 16));
    expect(await verifyArchiveFile(file, publicKey)).toEqual({
      ok: false,
      reason: `chain ${removed.chain} positions ${removed.chainSeq}-${removed.chainSeq} are missing before row ${next.id} (removed)`,
    });
  });

  it('with its last row removed (a count short)', async () => {
    const file = changedCopy('last.jsonl', (l) => [...l.slice(0, -2), l.at(-1)!]);
    expect(await verifyArchiveFile(file, publicKey)).toEqual({
      ok: false,
      reason: 'the file has 38 rows, its checkpoint 39 (rows removed or added)',
    });
  });

  it('with a checkpoint signed by another key, or changed', async () => {
    const other = generateKeyPairSync('ed25519').publicKey;
    expect(await verifyArchiveFile(janFile, other)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^the checkpoint's signature does not match/),
    });
    const file = changedCopy('checkpoint.jsonl', (l) => [...l.slice(0, -1), l.at(-1)!.replace('"rows":39', '"rows":40')]);
    expect(await verifyArchiveFile(file, publicKey)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^the checkpoint's signature does not match/),
    });
  });

  it('cut short, without its checkpoint', async () => {
    const file = changedCopy('cut.jsonl', (l) => l.slice(0, -1));
    expect(await verifyArchiveFile(file, publicKey)).toMatchObject({ ok: false, reason: expect.stringMatching(/no archive checkpoint/) });
  });
});

describe('a month whose end a chain crosses out of order', () => {
  // A row stamped earlier than the row before it in its chain (its statement began before that row's, decision 057):
  // across the month's end, position 2 of a chain is in January and position 1 in February.
  let other: TestDatabase;
  beforeAll(async () => {
    other = await createTestDatabase();
    const odb = other.handle.db;
    await odb.execute(sql`SELECT nhr_audit_create_partition('2024-01-01'), nhr_audit_create_partition('2024-02-01')`);
    for (let i = 0; i < 20; i++) await writeAudit(odb, auditEntry({ resourceId: i }));
    await spreadOverAllChains(odb);
    await odb.execute(sql`UPDATE audit_logs SET "timestamp" = CASE WHEN chain = 2 AND chain_seq = 2 THEN '2024-01-31T23:59:59Z'::timestamptz
      WHEN chain = 2 THEN '2024-02-01T00:00:01Z'::timestamptz ELSE '2024-01-15T00:00:00Z'::timestamptz END WHERE id <= 17 OR chain = 2`);
    await rehashAll(odb);
  }, 60_000);
  afterAll(async () => {
    await other?.dispose();
  });

  it('verifies in the database, and is refused for archive with the chain named, nothing detached or left behind', async () => {
    const odb = other.handle.db;
    expect(await verifyAuditChain(odb)).toMatchObject({ ok: true });
    const out = path.join(dir, 'crossed.jsonl');
    expect(await refusal(archiveMonth(odb, { month: '2024-01', out, privateKey }))).toMatch(
      /^2024-01 cannot be archived: chain 2 does not run on from position 0: its first row of 2024-01 is position 2/,
    );
    expect(() => readFileSync(out)).toThrow();
    const [attached] = await query<{ n: number }>(odb, sql`SELECT count(*)::int AS n FROM audit_logs_2024_01`);
    expect(attached!.n).toBeGreaterThan(0);
  });
});
