// The digest off the server (issue 21 item 11; docs/decisions/038-audit-digest-off-the-server.md): each digest the
// server writes is also copied into AUDIT_DIGEST_COPY_DIR and/or POSTed to AUDIT_DIGEST_URL, so the outside reference
// the verifier needs exists without an operator remembering to copy it. And the verifier's side: the latest digest of
// a folder of them.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { DIGEST_FORMAT, writeDigest, type AuditDigest } from './audit-digest';

/** How long a POST of the digest may take before it counts as failed. */
const POST_TIMEOUT_MS = 15_000;

export interface DigestCopyResult {
  /** The copy written into AUDIT_DIGEST_COPY_DIR, if one is configured. */
  copied?: string;
  /** The HTTP status of the POST to AUDIT_DIGEST_URL, if one is configured. */
  posted?: number;
}

/**
 * Sends one digest to the configured places: the folder (the same file name) and the URL (POST, JSON body, any 2xx
 * is success). Throws when a configured place did not take it, naming which, after trying both.
 */
export async function sendDigestOff(digest: AuditDigest, fileName: string, copy: Config['auditDigestCopy']): Promise<DigestCopyResult> {
  const body = JSON.stringify(digest, null, 2) + '\n';
  const result: DigestCopyResult = {};
  const failures: string[] = [];
  if (copy.dir) {
    try {
      await mkdir(copy.dir, { recursive: true });
      result.copied = path.join(copy.dir, fileName);
      await writeFile(result.copied, body);
    } catch (error) {
      failures.push(`the copy to ${copy.dir} failed (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  if (copy.url) {
    try {
      const res = await fetch(copy.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(POST_TIMEOUT_MS),
      });
      result.posted = res.status;
      if (!res.ok) failures.push(`the POST to ${new URL(copy.url).origin} was answered ${res.status}`);
    } catch (error) {
      failures.push(`the POST to ${new URL(copy.url).origin} failed (${(error as Error).name})`);
    }
  }
  if (failures.length > 0) throw new Error(`the audit digest was not sent off the server: ${failures.join('; ')}`);
  return result;
}

/** The newest digest file of a folder (by its createdAt), as text and path; null when the folder holds none. */
export async function latestDigestIn(dir: string): Promise<{ file: string; text: string } | null> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let best: { file: string; text: string; createdAt: string } | null = null;
  for (const name of names) {
    const file = path.join(dir, name);
    const text = await readFile(file, 'utf8');
    let createdAt: unknown;
    try {
      const parsed = JSON.parse(text) as Partial<AuditDigest>;
      createdAt = parsed.format === DIGEST_FORMAT ? parsed.createdAt : undefined;
    } catch {
      createdAt = undefined;
    }
    if (typeof createdAt === 'string' && (!best || createdAt > best.createdAt)) best = { file, text, createdAt };
  }
  return best ? { file: best.file, text: best.text } : null;
}

/**
 * Writes a checkpoint and its signed digest into DATA_DIR/audit-digests, then sends it to the configured places.
 * The local file is written even when sending fails (the error names what failed, for the log).
 */
export async function writeDigestAndSendOff(
  db: Db,
  privateKey: KeyObject,
  config: Pick<Config, 'dataDir' | 'auditDigestCopy'>,
): Promise<{ file: string } & DigestCopyResult> {
  const { file, digest } = await writeDigest(db, privateKey, config.dataDir);
  return { file, ...(await sendDigestOff(digest, path.basename(file), config.auditDigestCopy)) };
}
