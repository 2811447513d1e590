// The server's own digest schedule sends each digest off the server (issue 21 item 11): into AUDIT_DIGEST_COPY_DIR and
// as a POST to AUDIT_DIGEST_URL, here a real HTTP server of this test; the newest digest of a folder is found by the
// verifier's helper.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicKey } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { checkpointOfDigest, publicKeyFileOf } from './audit-digest';
import { latestDigestIn } from './audit-digest-copy';
import { startAuditDigests } from './audit-digest-schedule';

let database: TestDatabase;
let receiver: Server;
let url = '';
let posted: Promise<string>;
const work = mkdtempSync(path.join(tmpdir(), 'nhr-digest-copy-'));

beforeAll(async () => {
  database = await createTestDatabase();
  posted = new Promise((resolve) => {
    receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        res.writeHead(201).end();
        resolve(body);
      });
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/audit-digests`;
});
afterAll(async () => {
  receiver?.close();
  await database?.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe('the digest schedule', () => {
  it('writes the digest, copies it into the folder and POSTs it to the URL, all signed by the server key', async () => {
    const copyDir = path.join(work, 'share');
    const keyFile = path.join(work, 'key.pem');
    const logged = new Promise<Record<string, unknown>>((resolve, reject) => {
      const stop = startAuditDigests(
        database.handle.db,
        { auditDigestHours: 24, auditSigningKey: { pem: undefined, file: keyFile }, dataDir: work, auditDigestCopy: { dir: copyDir, url } },
        {
          info: (obj) => {
            stop();
            resolve(obj as Record<string, unknown>);
          },
          error: (obj) => {
            stop();
            reject(new Error(JSON.stringify(obj)));
          },
        },
      );
    });
    const info = await logged;
    expect(info).toMatchObject({ posted: 201, copied: expect.stringContaining(copyDir) });
    const publicKey = createPublicKey(readFileSync(publicKeyFileOf(keyFile), 'utf8'));
    const fromUrl = checkpointOfDigest(await posted, publicKey);
    const [copy] = readdirSync(copyDir);
    expect(checkpointOfDigest(readFileSync(path.join(copyDir, copy!), 'utf8'), publicKey)).toEqual(fromUrl);
    expect(fromUrl.chainCount).toBe(16);
  });
});

describe('latestDigestIn', () => {
  it('picks the newest digest of a folder by its createdAt, ignoring other files; null for a missing folder', async () => {
    const dir = path.join(work, 'many');
    const share = path.join(work, 'share');
    const [copy] = readdirSync(share);
    const digest = JSON.parse(readFileSync(path.join(share, copy!), 'utf8')) as { createdAt: string };
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'z-old.json'), JSON.stringify({ ...digest, createdAt: '2020-01-01T00:00:00.000Z' }));
    writeFileSync(path.join(dir, 'a-new.json'), JSON.stringify(digest));
    writeFileSync(path.join(dir, 'notes.json'), '{"hello":1}');
    writeFileSync(path.join(dir, 'broken.json'), '{');
    expect((await latestDigestIn(dir))?.file).toBe(path.join(dir, 'a-new.json'));
    expect(await latestDigestIn(path.join(work, 'none'))).toBeNull();
  });
});
