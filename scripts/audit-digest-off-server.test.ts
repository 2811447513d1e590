// The digest off the server and the verifier's outside reference (issue 21 item 11), as real processes against a real
// database: `audit:digest` copies the signed digest into AUDIT_DIGEST_COPY_DIR and POSTs it to AUDIT_DIGEST_URL (a
// real HTTP server of this test); `audit:verify` warns loudly when it has no outside reference, and with the copy
// folder (or an anchor taken earlier) it fails when 15 of 16 chains were deleted with their heads and checkpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { checkpointOfDigest } from '../src/server/audit/audit-digest';
import { writeAudit } from '../src/server/audit/audit-writer';
import { auditEntry, spreadOverAllChains } from '../src/server/test/audit-fixtures';
import { createScriptDatabase, runScript, type ScriptDatabase } from './script-test-kit';

let database: ScriptDatabase | undefined;
const env: NodeJS.ProcessEnv = { ...process.env };
const work = mkdtempSync(path.join(tmpdir(), 'nhr-digest-off-'));
const copyDir = path.join(work, 'off-server-share');
env.AUDIT_SIGNING_KEY_FILE = path.join(work, 'audit-signing-key.pem');
delete env.AUDIT_SIGNING_KEY;
delete env.AUDIT_DIGEST_COPY_DIR;
delete env.AUDIT_DIGEST_URL;

/** The receiving end of AUDIT_DIGEST_URL: a real HTTP server that keeps what it was sent. */
let receiver: Server;
let receiverUrl = '';
const received: { contentType: string | undefined; body: string }[] = [];

const script = (name: string, extraEnv: NodeJS.ProcessEnv, ...args: string[]) => runScript(name, args, { ...env, ...extraEnv });

beforeAll(async () => {
  receiver = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ contentType: req.headers['content-type'], body });
      res.writeHead(204).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/digests`;

  database = await createScriptDatabase(env);
  if (process.env.DATABASE_URL) env.DATA_DIR = path.join(work, 'data'); // the local digest files, never the working tree's
  await database.use(async ({ db }) => {
    await db.transaction(async (tx) => {
      for (let i = 0; i < 32; i++) await writeAudit(tx, auditEntry({ resourceId: i, patientId: 2000 + i }));
      await spreadOverAllChains(tx);
    });
  });
}, 60_000);

afterAll(async () => {
  receiver?.close();
  await database?.dispose();
  rmSync(work, { recursive: true, force: true });
});

const NO_REFERENCE = /WARNING: NO OUTSIDE REFERENCE/;
let anchor = '';

describe('audit:verify without an outside reference', () => {
  it('says OK for the database as it is, and warns loudly that it compared the log only with itself', async () => {
    const { code, stdout } = await script('audit-verify', {});
    expect(stdout.split('\n')[0]).toBe('OK: 32 rows');
    expect(stdout).toMatch(NO_REFERENCE);
    expect(code).toBe(0);
    anchor = /--anchor (\S+)/.exec(stdout)![1]!;
    // With an anchor it has something from outside: no warning.
    const anchored = await script('audit-verify', {}, '--anchor', anchor);
    expect(anchored.code).toBe(0);
    expect(anchored.stdout).not.toMatch(NO_REFERENCE);
  });
});

describe('audit:digest sends the digest off the server', () => {
  it('copies the signed digest into AUDIT_DIGEST_COPY_DIR and POSTs it to AUDIT_DIGEST_URL', async () => {
    const { code, stdout } = await script('audit-digest', { AUDIT_DIGEST_COPY_DIR: copyDir, AUDIT_DIGEST_URL: receiverUrl });
    expect(code).toBe(0);
    expect(stdout).toMatch(/Sent to AUDIT_DIGEST_URL: HTTP 204/);
    const copies = readdirSync(copyDir);
    expect(copies).toHaveLength(1);
    const publicKey = createPublicKey(readFileSync(env.AUDIT_SIGNING_KEY_FILE!.replace(/\.pem$/, '.pub.pem'), 'utf8'));
    const copied = checkpointOfDigest(readFileSync(path.join(copyDir, copies[0]!), 'utf8'), publicKey);
    expect(copied).toMatchObject({ chainCount: 16 });
    expect(copied.heads.every((h) => h.seq === 2)).toBe(true);
    expect(received).toHaveLength(1);
    expect(received[0]!.contentType).toBe('application/json');
    expect(checkpointOfDigest(received[0]!.body, publicKey)).toEqual(copied);
  });

  it('fails (exit 1) and says so when the URL does not take it, keeping the local file', async () => {
    const local = path.join(env.DATA_DIR!, 'audit-digests');
    const before = readdirSync(local).length;
    const { code } = await script('audit-digest', { AUDIT_DIGEST_URL: 'http://127.0.0.1:1/nowhere' });
    expect(code).toBe(1);
    expect(readdirSync(local)).toHaveLength(before + 1);
  });
});

describe('15 of 16 chains deleted with their heads and every checkpoint row', () => {
  it('passes a check without outside reference (with the warning), and fails against the copy folder or the earlier anchor', async () => {
    await database!.use(async ({ db }) => {
      await db.execute(sql`DELETE FROM audit_checkpoints`);
      await db.execute(sql`DELETE FROM audit_logs WHERE chain > 1`);
      await db.execute(sql`DELETE FROM audit_chain_head WHERE chain > 1`);
    });
    const blind = await script('audit-verify', {});
    expect(blind.stdout.split('\n')[0]).toBe('OK: 2 rows');
    expect(blind.stdout).toMatch(NO_REFERENCE);

    const withCopies = await script('audit-verify', { AUDIT_DIGEST_COPY_DIR: copyDir });
    expect(withCopies.stdout).toMatch(/^Using the newest digest of /);
    expect(withCopies.stdout).toMatch(
      /BROKEN: first bad row id unknown\n15 of 16 audit chains were deleted \(chains 2, 3, .*16, with their heads\)/,
    );
    expect(withCopies.code).toBe(1);

    const withDir = await script('audit-verify', {}, '--digest-dir', copyDir);
    expect(withDir.code).toBe(1);

    const withAnchor = await script('audit-verify', {}, '--anchor', anchor);
    expect(withAnchor.stdout).toMatch(/15 of 16 audit chains were deleted .*the anchor recorded 16 chains, 1 remain/);
    expect(withAnchor.code).toBe(1);
  });
});
