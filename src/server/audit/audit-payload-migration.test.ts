// Carrying the existing chain over migration 0043 (decision 042): a database migrated up to 0042, seeded with
// `npm run seed`'s loader and holding audit rows written by the old nhr_audit_append (clinical values in the chain),
// verifies before the migration, verifies with the same anchor after it (no row was re-chained), and still verifies
// after rows with payloads are written and one payload is shredded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { seedPatients } from '../../../bench/seed/seed-patients';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { createScratchDatabase, type ScratchDatabase } from '../db/scratch-database';
import { auditEntry, query } from '../test/audit-fixtures';
import { hashedFields } from './audit-hash';
import { configureAuditPayloads } from './audit-payload';
import { shredAuditPayload } from './audit-shred';
import { verifyAuditChain, type AuditVerifyResult } from './audit-verify';
import { auditRowFields, jsonText, writeAudit, type AuditEntry } from './audit-writer';
import { canonicalSegments } from './canonical-json';

const MIGRATIONS = fileURLToPath(new URL('../db/migrations', import.meta.url));
const LAST_BEFORE = 27; // 0042_versioned_clinical_rows: the last migration before 0043_audit_payloads

let handle: DatabaseHandle;
let scratch: ScratchDatabase | undefined;
let upTo0042: string;

/** The migrations folder as it was before 0043: the same files, the journal cut after 0042. */
function migrationsBefore0043(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'nhr-migrations-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number; tag: string }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= LAST_BEFORE);
  expect(journal.entries.at(-1)!.tag).toBe('0042_versioned_clinical_rows');
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

async function migrateWith(folder: string): Promise<void> {
  if (handle.kind === 'pglite') await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: folder });
  else await migratePg(handle.db as unknown as NodePgDatabase, { migrationsFolder: folder });
}

/** The audit writer as it was before 0043: the 18-argument nhr_audit_append, old and new values in the chain. */
async function writeLegacyAudit(entry: AuditEntry): Promise<void> {
  const f = auditRowFields(entry);
  const { segments } = canonicalSegments(hashedFields(f), ['chain', 'chainSeq', 'id', 'timestamp']);
  const [s0, s1, s2, s3, s4] = segments;
  await handle.db.execute(sql`SELECT nhr_audit_append(${s0}, ${s1}, ${s2}, ${s3}, ${s4}, ${f.userId}, ${f.userName},
    ${f.action}, ${f.resourceType}, ${f.resourceId}, ${f.patientId}, ${jsonText(f.oldValues)}::jsonb, ${jsonText(f.newValues)}::jsonb,
    ${f.ipAddress}, ${f.userAgent}, ${f.sessionId}, ${f.facility}, ${jsonText(f.complianceFlags)}::jsonb)`);
}

const anchorOf = (r: AuditVerifyResult): string => (r.ok ? r.anchor : `BROKEN ${r.firstBadId}: ${r.reason}`);

beforeAll(async () => {
  upTo0042 = migrationsBefore0043();
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    scratch = await createScratchDatabase(serverUrl, 'nhr_test');
    handle = await openDatabase({ databaseUrl: scratch.url, poolSize: 3 });
  } else handle = await openDatabase({ dataDir: 'memory://' });
  await migrateWith(upTo0042);
  await seedPatients(handle, scratch?.url, { patients: 50, seed: 7, asOf: '2026-11-01' });
}, 120_000);
afterAll(async () => {
  configureAuditPayloads(null);
  await handle?.close();
  await scratch?.drop();
  if (upTo0042) rmSync(upTo0042, { recursive: true, force: true });
});

describe('migration 0043 on a seeded database', () => {
  let anchorBefore = '';
  let medication: Record<string, unknown>;

  it('verifies before the migration, with rows written by the old writer holding clinical values in the chain', async () => {
    [medication] = (await query(handle.db, sql`SELECT * FROM medications ORDER BY id LIMIT 1`)) as [Record<string, unknown>];
    expect(medication).toBeDefined();
    const patientId = medication.patient_id as number;
    await writeLegacyAudit(auditEntry({ action: 'VIEW', resourceType: 'PATIENT', resourceId: patientId, patientId }));
    await writeLegacyAudit(
      auditEntry({ action: 'CREATE', resourceType: 'MEDICATION', resourceId: medication.id as number, patientId, newValues: medication }),
    );
    await writeLegacyAudit(
      auditEntry({
        action: 'UPDATE',
        resourceType: 'MEDICATION',
        resourceId: medication.id as number,
        patientId,
        oldValues: medication,
        newValues: { ...medication, dosage: 'changed' },
      }),
    );
    const result = await verifyAuditChain(handle.db);
    expect(result).toMatchObject({ ok: true, rows: 3 });
    anchorBefore = anchorOf(result);
  });

  it('verifies after it with the same anchor: every existing row hashes as before', async () => {
    await handle.migrate(); // the real folder: applies 0043 only
    const [{ n }] = (await query<{ n: number }>(handle.db, sql`SELECT count(*)::int AS n FROM audit_logs WHERE payload_hash IS NULL`)) as [
      { n: number },
    ];
    expect(n).toBe(3);
    const result = await verifyAuditChain(handle.db, { anchor: anchorBefore });
    expect(result).toMatchObject({ ok: true, rows: 3, payloads: { stored: 0, shredded: 0 } });
    expect(anchorOf(result)).toBe(anchorBefore);
  });

  it('verifies after rows with payloads are written beside the old ones and one payload is shredded', async () => {
    configureAuditPayloads({ value: randomBytes(32).toString('base64'), file: '', name: 'AUDIT_PAYLOAD_KEY' });
    const patientId = medication.patient_id as number;
    const ids: number[] = [];
    for (const dosage of ['10 mg', '20 mg', '30 mg']) {
      ids.push(
        await writeAudit(
          handle.db,
          auditEntry({
            action: 'UPDATE',
            resourceType: 'MEDICATION',
            resourceId: medication.id as number,
            patientId,
            newValues: { changed: ['dosage'] },
            payload: { oldValues: medication, newValues: { ...medication, dosage } },
          }),
        ),
      );
    }
    expect(await verifyAuditChain(handle.db, { anchor: anchorBefore })).toMatchObject({ ok: true, payloads: { stored: 3, shredded: 0 } });
    const by = { userId: 'dpo-1', userName: 'Data Protection Officer', facility: null };
    expect(await shredAuditPayload(handle.db, ids[1]!, { by, reason: 'sealed item' })).toBe('SHREDDED');
    const after = await verifyAuditChain(handle.db, { anchor: anchorBefore });
    expect(after).toMatchObject({ ok: true, rows: 7, payloads: { stored: 3, shredded: 1, opened: true } });
  });
});
