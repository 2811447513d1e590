// The audit:archive command and audit:verify --archive, run as real processes against a real database (embedded or
// PostgreSQL): a past month archived to a file and detached, the file checked with the public key only, a changed file
// refused, the live chains checked from the archived month's checkpoint (decision 057).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { writeAudit } from '../src/server/audit/audit-writer';
import { auditEntry, spreadOverAllChains } from '../src/server/test/audit-fixtures';
import { createScriptDatabase, runScript, type ScriptDatabase } from './script-test-kit';

let database: ScriptDatabase | undefined;
const env: NodeJS.ProcessEnv = { ...process.env };
const dir = mkdtempSync(path.join(tmpdir(), 'nhr-audit-archive-cli-'));
env.AUDIT_SIGNING_KEY_FILE = path.join(dir, 'audit-signing-key.pem');
delete env.AUDIT_SIGNING_KEY;
const publicKey = path.join(dir, 'audit-signing-key.pub.pem');
const file = path.join(dir, 'audit-2025-03.jsonl');

const archive = (...args: string[]) => runScript('audit-archive', args, env);
const verify = (...args: string[]) => runScript('audit-verify', args, env);

beforeAll(async () => {
  database = await createScriptDatabase(env);
  await database.use(async ({ db }) => {
    await db.execute(sql`SELECT nhr_audit_create_partition('2025-03-01')`);
    // 20 rows: spread over the 16 chains, every chain's head is set again (the writer's too).
    for (let i = 0; i < 20; i++) await writeAudit(db, auditEntry({ resourceId: i }));
    await db.execute(sql`
      WITH n AS (SELECT id, row_number() OVER (ORDER BY id) AS k FROM audit_logs)
      UPDATE audit_logs a SET "timestamp" = '2025-03-10T08:00:00Z'::timestamptz + n.k * interval '1 minute'
      FROM n WHERE n.id = a.id AND n.k <= 3`);
    await spreadOverAllChains(db);
  });
}, 60_000);

afterAll(async () => {
  await database?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run audit:archive', () => {
  it('refuses the current month (exit 1), and needs a month and a file (exit 2)', async () => {
    const month = new Date().toISOString().slice(0, 7);
    const { code, stdout } = await archive('--month', month, '--out', file);
    expect(stdout).toMatch(new RegExp(`^REFUSED: ${month} is not over yet`));
    expect(code).toBe(1);
    expect((await archive('--month', '2025-03')).code).toBe(2);
  });

  it('archives a past month: the file with its signed checkpoint, then the partition detached', async () => {
    const { code, stdout } = await archive('--month', '2025-03', '--out', file);
    expect(stdout.split('\n')[0]).toMatch(/^ARCHIVED: 3 rows of 2025-03 \(ids 1 to 3\)/);
    expect(stdout).toContain('DROP TABLE audit_logs_2025_03;');
    expect(code).toBe(0);
  });
});

describe('npm run audit:verify -- --archive FILE', () => {
  it('checks the file against its checkpoint with the public key alone (exit 0)', async () => {
    const { code, stdout } = await verify('--archive', file, '--public-key', publicKey);
    expect(stdout.split('\n')[0]).toMatch(/^OK: 3 rows of 2025-03, consistent with the archive checkpoint of /);
    expect(code).toBe(0);
  });

  it('names what is wrong with a changed file (exit 1)', async () => {
    const changed = path.join(dir, 'changed.jsonl');
    writeFileSync(changed, readFileSync(file, 'utf8').replace('"action":"VIEW"', '"action":"EDIT"'));
    const { code, stdout } = await verify('--archive', changed, '--public-key', publicKey);
    expect(stdout.split('\n')).toEqual([`BROKEN: ${changed}`, 'row 1 does not match its hash (changed)', '']);
    expect(code).toBe(1);
  });

  it('without --archive, checks the rows still in the database from the archived month on', async () => {
    const { code, stdout } = await verify();
    expect(stdout.split('\n').slice(0, 2)).toEqual([
      'OK: 17 rows',
      'The rows up to 2025-03 are archived: the chains were checked from its signed checkpoint on',
    ]);
    expect(code).toBe(0);
  });
});
