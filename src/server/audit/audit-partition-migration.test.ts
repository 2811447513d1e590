// Carrying the audit log over migration 0054 (decision 057): a database migrated up to 0053 with audit rows of two
// months, guarded by audit-append-only.sql, verifies with the same anchor after the table becomes partitioned by month
// (every row copied unchanged), each row in its month's partition, and keeps the script's rights and triggers (the
// application role still cannot write the table or its partitions).
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
import { openDatabase, type DatabaseHandle } from '../db/client';
import { createScratchDatabase, type ScratchDatabase } from '../db/scratch-database';
import { appendOnlyScriptFor, runSqlScript } from '../test/append-only-script';
import { auditEntry, query, spreadOverAllChains } from '../test/audit-fixtures';
import { verifyAuditChain, type AuditVerifyResult } from './audit-verify';
import { writeAudit } from './audit-writer';

const MIGRATIONS = fileURLToPath(new URL('../db/migrations', import.meta.url));
const LAST_BEFORE = 38; // 0053_fhir_faithful_creates: the last migration before 0054_audit_partitions
const role = `nhr_app_test_${randomBytes(4).toString('hex')}`;
const thisMonth = new Date().toISOString().slice(0, 7).replace('-', '_');

let handle: DatabaseHandle;
let scratch: ScratchDatabase | undefined;
let upTo0053: string;
let upTo0054: string;

/** The migrations folder with the journal cut after entry `last`. */
function migrationsUpTo(last: number, tag: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'nhr-migrations-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number; tag: string }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= last);
  expect(journal.entries.at(-1)!.tag).toBe(tag);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

async function migrateWith(folder: string): Promise<void> {
  if (handle.kind === 'pglite') await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: folder });
  else await migratePg(handle.db as unknown as NodePgDatabase, { migrationsFolder: folder });
}

/** The script as it was before 0054: without its statements (one line each) on the objects 0054 adds. */
const scriptBefore0054 = (text: string): string =>
  text
    .split('\n')
    .filter((line) => line.startsWith('--') || !/nhr_audit_(ensure|create|guard)_partition|audit_archives/.test(line))
    .join('\n');

const anchorOf = (r: AuditVerifyResult): string => (r.ok ? r.anchor : `BROKEN ${r.firstBadId}: ${r.reason}`);

beforeAll(async () => {
  upTo0053 = migrationsUpTo(LAST_BEFORE, '0053_fhir_faithful_creates');
  upTo0054 = migrationsUpTo(LAST_BEFORE + 1, '0054_audit_partitions');
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    scratch = await createScratchDatabase(serverUrl, 'nhr_test');
    handle = await openDatabase({ databaseUrl: scratch.url, poolSize: 3 });
  } else handle = await openDatabase({ dataDir: 'memory://' });
  await migrateWith(upTo0053);
  // 24 rows, the first 10 of June 2025, spread over the 16 chains and hashed as the writer would have; then guarded.
  for (let i = 0; i < 24; i++) await writeAudit(handle.db, auditEntry({ resourceId: i }));
  await handle.db.execute(sql`
    WITH n AS (SELECT id, row_number() OVER (ORDER BY id) AS k FROM audit_logs)
    UPDATE audit_logs a SET "timestamp" = '2025-06-30T10:00:00Z'::timestamptz + n.k * interval '1 minute'
    FROM n WHERE n.id = a.id AND n.k <= 10`);
  await spreadOverAllChains(handle.db);
  await handle.db.execute(sql.raw(`CREATE ROLE "${role}" NOLOGIN`));
  await runSqlScript(handle, scriptBefore0054(appendOnlyScriptFor(role)));
}, 120_000);
afterAll(async () => {
  if (handle) {
    await handle.db.execute(sql.raw(`DROP OWNED BY "${role}"`)).catch(() => undefined);
    await handle.db.execute(sql.raw(`DROP ROLE IF EXISTS "${role}"`)).catch(() => undefined);
    await handle.close();
  }
  await scratch?.drop();
  for (const dir of [upTo0053, upTo0054]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('migration 0054 on a guarded audit log', () => {
  let anchorBefore = '';

  it('verifies before the migration', async () => {
    const result = await verifyAuditChain(handle.db);
    expect(result).toMatchObject({ ok: true, rows: 24 });
    anchorBefore = anchorOf(result);
  });

  it('verifies after it with the same anchor, each row in its month', async () => {
    await migrateWith(upTo0054);
    const result = await verifyAuditChain(handle.db, { anchor: anchorBefore });
    expect(anchorOf(result)).toBe(anchorBefore);
    expect(
      await query(handle.db, sql`SELECT tableoid::regclass::text AS partition, count(*)::int AS n FROM audit_logs GROUP BY 1 ORDER BY 1`),
    ).toEqual([
      { partition: 'audit_logs_2025_06', n: 10 },
      { partition: `audit_logs_${thisMonth}`, n: 14 },
    ]);
  });

  it("keeps the script's triggers on the table and its partitions", async () => {
    const triggers = await query<{ t: string }>(
      handle.db,
      sql`SELECT c.relname || '.' || g.tgname AS t FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
          WHERE c.relname IN ('audit_logs', 'audit_logs_2025_06') AND NOT g.tgisinternal ORDER BY 1`,
    );
    expect(triggers.map((r) => r.t)).toEqual(
      expect.arrayContaining([
        'audit_logs.audit_logs_append_only',
        'audit_logs.audit_logs_chain_insert',
        'audit_logs.audit_logs_no_truncate',
        'audit_logs_2025_06.audit_partition_no_truncate',
      ]),
    );
  });

  it('leaves the application role reading the table and its partitions, never writing them', async () => {
    const rights = await query(
      handle.db,
      sql`SELECT has_table_privilege(${role}, 'audit_logs', 'SELECT') AS "read",
          has_table_privilege(${role}, 'audit_logs', 'INSERT') OR has_table_privilege(${role}, 'audit_logs', 'DELETE') AS "write",
          has_table_privilege(${role}, 'audit_logs_2025_06', 'INSERT') OR has_table_privilege(${role}, 'audit_logs_2025_06', 'UPDATE') AS "writePartition"`,
    );
    expect(rights).toEqual([{ read: true, write: false, writePartition: false }]);
    const [refused] = await query<{ refused: boolean }>(
      handle.db,
      sql`SELECT NOT has_function_privilege(${role}, 'nhr_audit_create_partition(date)', 'EXECUTE') AS refused`,
    );
    expect(refused!.refused).toBe(true);
  });

  it('appends and verifies after it, and after the migrations that follow it', async () => {
    await handle.migrate();
    await writeAudit(handle.db, auditEntry({ action: 'SEARCH' }));
    expect(await verifyAuditChain(handle.db, { anchor: anchorBefore })).toMatchObject({ ok: true, rows: 25 });
  });
});
