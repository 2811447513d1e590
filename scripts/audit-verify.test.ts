// The audit:verify command, run as a real process against a real database (embedded or PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { createDigest, loadSigningKey } from '../src/server/audit/audit-digest';
import { writeAudit } from '../src/server/audit/audit-writer';
import { openDatabase, type DatabaseHandle } from '../src/server/db/client';
import { auditEntry } from '../src/server/test/audit-fixtures';
import { createTestDatabase, type TestDatabase } from '../src/server/test/test-database';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

// PGlite allows one process per data directory, so the embedded database is opened only between runs.
let dataDir: string | undefined;
let server: TestDatabase | undefined;
const env: NodeJS.ProcessEnv = { ...process.env };
const keyDir = mkdtempSync(path.join(tmpdir(), 'nhr-audit-key-'));
env.AUDIT_SIGNING_KEY_FILE = path.join(keyDir, 'audit-signing-key.pem');
delete env.AUDIT_SIGNING_KEY;

async function withDatabase(fn: (h: DatabaseHandle) => Promise<void>): Promise<void> {
  if (server) return fn(server.handle);
  const handle = await openDatabase({ dataDir: dataDir! });
  try {
    await fn(handle);
  } finally {
    await handle.close();
  }
}

async function verify(...args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/audit-verify.ts', ...args], { cwd: root, env });
    return { code: 0, stdout };
  } catch (e) {
    const err = e as { code: number; stdout: string };
    return { code: err.code, stdout: err.stdout };
  }
}

beforeAll(async () => {
  if (process.env.DATABASE_URL) {
    server = await createTestDatabase();
    env.DATABASE_URL = server.url;
  } else {
    dataDir = mkdtempSync(path.join(tmpdir(), 'nhr-audit-verify-'));
    delete env.DATABASE_URL;
    env.DATA_DIR = dataDir;
    await withDatabase((h) => h.migrate());
  }
  await withDatabase(async ({ db }) => {
    for (let i = 0; i < 3; i++) await db.transaction((tx) => writeAudit(tx, auditEntry({ resourceId: i })));
  });
}, 60_000);

afterAll(async () => {
  await server?.dispose();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
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
    await withDatabase(async ({ db }) => {
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
    await withDatabase(({ db }) => db.execute(sql`UPDATE audit_logs SET ip_address = '6.6.6.6' WHERE id = 2`).then(() => undefined));
    const { code, stdout } = await verify();
    expect(stdout.split('\n')[0]).toBe('BROKEN: first bad row id 2');
    expect(code).toBe(1);
  });

  it('exits 2 when it cannot run, e.g. on a malformed anchor', async () => {
    expect((await verify('--anchor', 'nonsense')).code).toBe(2);
  });
});
