// The audit:verify command, run as a real process against a real database (embedded or PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createDigest, loadSigningKey } from '../src/server/audit/audit-digest';
import { writeAudit } from '../src/server/audit/audit-writer';
import { auditEntry } from '../src/server/test/audit-fixtures';
import { createScriptDatabase, runScript, type ScriptDatabase } from './script-test-kit';

let database: ScriptDatabase | undefined;
const env: NodeJS.ProcessEnv = { ...process.env };
const keyDir = mkdtempSync(path.join(tmpdir(), 'nhr-audit-key-'));
env.AUDIT_SIGNING_KEY_FILE = path.join(keyDir, 'audit-signing-key.pem');
delete env.AUDIT_SIGNING_KEY;

const verify = (...args: string[]) => runScript('audit-verify', args, env);

beforeAll(async () => {
  database = await createScriptDatabase(env);
  await database.use(async ({ db }) => {
    for (let i = 0; i < 3; i++) await db.transaction((tx) => writeAudit(tx, auditEntry({ resourceId: i })));
  });
}, 60_000);

afterAll(async () => {
  await database?.dispose();
  rmSync(keyDir, { recursive: true, force: true });
});

describe('npm run audit:verify', () => {
  let anchor = '';

  it("prints 'OK: N rows' and exits 0 for an intact chain", async () => {
    const { code, stdout } = await verify();
    expect(stdout.split('\n')[0]).toBe('OK: 3 rows');
    expect(code).toBe(0);
    anchor = /--anchor (\S+)/.exec(stdout)![1]!;
    expect(anchor).toMatch(/^([0-9]+(-[0-9a-f]{16})?\.){15}[0-9]+(-[0-9a-f]{16})?$/);
  });

  it('accepts the anchor it printed', async () => {
    expect(await verify('--anchor', anchor)).toMatchObject({ code: 0 });
  });

  it('--digest FILE: checks the signed digest and compares the chains with it', async () => {
    const file = path.join(keyDir, 'digest.json');
    await database!.use(async ({ db }) => {
      const key = await loadSigningKey({ pem: undefined, file: env.AUDIT_SIGNING_KEY_FILE! });
      writeFileSync(file, JSON.stringify(await createDigest(db, key)));
    });
    const { code, stdout } = await verify('--digest', file);
    expect(stdout.split('\n')[0]).toMatch(/^OK: 3 rows, consistent with the digest of /);
    expect(code).toBe(0);
    // With only the public key, as on another machine.
    expect(await verify('--digest', file, '--public-key', env.AUDIT_SIGNING_KEY_FILE!.replace(/\.pem$/, '.pub.pem'))).toMatchObject({
      code: 0,
    });
  });

  it('--digest FILE: refuses a digest whose signature was tampered with (exit 1)', async () => {
    const file = path.join(keyDir, 'digest.json');
    const digest = JSON.parse(readFileSync(file, 'utf8')) as { signature: string };
    const sig = Buffer.from(digest.signature, 'base64');
    sig[10] = sig[10]! ^ 0xff;
    writeFileSync(file, JSON.stringify({ ...digest, signature: sig.toString('base64') }));
    const { code, stdout } = await verify('--digest', file);
    expect(stdout).toMatch(/^REFUSED: the digest's signature does not match/);
    expect(code).toBe(1);
  });

  it('prints the id of the first changed row and exits 1', async () => {
    await database!.use(({ db }) => db.execute(sql`UPDATE audit_logs SET ip_address = '6.6.6.6' WHERE id = 2`).then(() => undefined));
    const { code, stdout } = await verify();
    expect(stdout.split('\n')[0]).toBe('BROKEN: first bad row id 2');
    expect(code).toBe(1);
  });

  it('exits 2 when it cannot run, e.g. on a malformed anchor', async () => {
    expect((await verify('--anchor', 'nonsense')).code).toBe(2);
  });
});
