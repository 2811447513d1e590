// npm run audit:shred and the payload lines of npm run audit:verify, run as real processes against a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { configureAuditPayloads } from '../src/server/audit/audit-payload';
import { writeAudit } from '../src/server/audit/audit-writer';
import { auditEntry, query } from '../src/server/test/audit-fixtures';
import { createScriptDatabase, runScript, type ScriptDatabase } from './script-test-kit';

const key = randomBytes(32).toString('base64');

let database: ScriptDatabase | undefined;
let auditId = 0;
const dir = mkdtempSync(path.join(tmpdir(), 'nhr-audit-shred-'));
const env: NodeJS.ProcessEnv = { ...process.env, AUDIT_PAYLOAD_KEY: key, AUDIT_SIGNING_KEY_FILE: path.join(dir, 'signing.pem') };
delete env.AUDIT_PAYLOAD_KEY_FILE;

const script = (name: string, args: string[], extraEnv: NodeJS.ProcessEnv = env) => runScript(name, args, extraEnv);

beforeAll(async () => {
  database = await createScriptDatabase(env);
  configureAuditPayloads({ value: key, file: '', name: 'AUDIT_PAYLOAD_KEY' });
  auditId = await database.use(async ({ db }) => {
    await writeAudit(db, auditEntry());
    return writeAudit(db, auditEntry({ action: 'UPDATE', resourceType: 'MEDICATION', payload: { newValues: { dosage: '5 mg' } } }));
  });
}, 60_000);
afterAll(async () => {
  configureAuditPayloads(null);
  await database?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run audit:shred', () => {
  it('audit:verify opens the payload with the key, and says when it has none', async () => {
    const ok = await script('audit-verify', ['--quiet']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('Payloads: 1 (0 shredded), each opened and matching its hash');
    const { AUDIT_PAYLOAD_KEY: _k, ...noKey } = env;
    const withoutKey = await script('audit-verify', ['--quiet'], { ...noKey, AUDIT_PAYLOAD_KEY_FILE: path.join(dir, 'absent.key') });
    expect(withoutKey.code).toBe(0);
    expect(withoutKey.stdout).toContain('NOT opened: no payload key (AUDIT_PAYLOAD_KEY or its file)');
  });

  it('shreds one payload (exit 0), then audit:verify still passes and counts it; a row without a payload exits 1', async () => {
    expect(await script('audit-shred', [String(auditId)])).toMatchObject({ code: 2 }); // no reason
    const shred = await script('audit-shred', [String(auditId), '--reason', 'erasure request', '--by', 'dpo']);
    expect(shred).toMatchObject({ code: 0, stdout: `Shredded the payload of audit row ${auditId}.\n` });
    expect(await script('audit-shred', [String(auditId - 1), '--reason', 'x'])).toMatchObject({ code: 1 });
    const rows = await database!.use(({ db }) =>
      query(db, sql`SELECT ciphertext, shredded_by, shred_reason FROM audit_payloads WHERE audit_id = ${auditId}`),
    );
    expect(rows).toEqual([{ ciphertext: null, shredded_by: 'operator:dpo', shred_reason: 'erasure request' }]);
    const verified = await script('audit-verify', ['--quiet']);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^OK: 3 rows/);
    expect(verified.stdout).toContain('Payloads: 1 (1 shredded)');
  });
});
