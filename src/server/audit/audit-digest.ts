// The signed daily audit digest (docs/decisions/012-audit-checkpoints-and-digest.md): a checkpoint (chain count and
// each chain's head) written to audit_checkpoints and to a JSON file signed with Ed25519, which an operator copies
// off the server and later checks with `npm run audit:verify -- --digest FILE`. The private key is AUDIT_SIGNING_KEY
// (PEM) or the file AUDIT_SIGNING_KEY_FILE (default DATA_DIR/audit-signing-key.pem, created on first use, mode 0600);
// its public key is written next to it (.pub.pem) so a copy can be verified away from the server.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/client';
import { writeCheckpoint, type Checkpoint, type CheckpointHead } from './audit-checkpoint';
import { canonicalJson, type JsonValue } from './canonical-json';

export const DIGEST_FORMAT = 'nhr-audit-digest/1';

export interface AuditDigest {
  format: typeof DIGEST_FORMAT;
  createdAt: string;
  checkpointId: number;
  chainCount: number;
  heads: CheckpointHead[];
  /** The first 16 hex digits of the SHA-256 of the public key (DER), to tell keys apart. */
  keyId: string;
  /** Ed25519 signature (base64) of the canonical JSON of every other field. */
  signature: string;
}

export interface SigningKeySource {
  /** PEM text of the private key (AUDIT_SIGNING_KEY). */
  pem?: string | undefined;
  /** Path of the PEM file (AUDIT_SIGNING_KEY_FILE, default DATA_DIR/audit-signing-key.pem). */
  file: string;
}

export const defaultSigningKeyFile = (dataDir: string): string => path.join(dataDir, 'audit-signing-key.pem');
export const publicKeyFileOf = (privateKeyFile: string): string => privateKeyFile.replace(/\.pem$/, '') + '.pub.pem';

/** The private key: from the PEM text, else the file, which is created (with its .pub.pem) when it does not exist. */
export async function loadSigningKey(source: SigningKeySource): Promise<KeyObject> {
  if (source.pem) return createPrivateKey(source.pem);
  try {
    return createPrivateKey(await readFile(source.file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  await mkdir(path.dirname(source.file), { recursive: true });
  try {
    await writeFile(source.file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another worker created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return createPrivateKey(await readFile(source.file, 'utf8'));
    throw error;
  }
  await writeFile(publicKeyFileOf(source.file), publicKey.export({ type: 'spki', format: 'pem' }));
  return privateKey;
}

export const keyIdOf = (publicKey: KeyObject): string =>
  createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);

const signedText = (d: object): Buffer => {
  const { signature: _ignored, ...fields } = d as { signature?: unknown };
  return Buffer.from(canonicalJson(fields as unknown as JsonValue));
};

/** The Ed25519 signature (base64) of the canonical JSON of `fields` (any `signature` field left out): digests, archives. */
export const signFields = (fields: object, privateKey: KeyObject): string => sign(null, signedText(fields), privateKey).toString('base64');

/** Whether `signature` (base64) signs the canonical JSON of `fields` (any `signature` field left out) under the key. */
export const signatureHolds = (fields: object, signature: string, publicKey: KeyObject): boolean =>
  verify(null, signedText(fields), publicKey, Buffer.from(signature, 'base64'));

/** Writes a checkpoint and returns the digest of it, signed. */
export async function createDigest(db: Db, privateKey: KeyObject): Promise<AuditDigest> {
  const cp = await writeCheckpoint(db);
  const unsigned = {
    format: DIGEST_FORMAT,
    createdAt: cp.createdAt,
    checkpointId: cp.id,
    chainCount: cp.chainCount,
    heads: cp.heads,
    keyId: keyIdOf(createPublicKey(privateKey)),
  } as const;
  return { ...unsigned, signature: signFields(unsigned, privateKey) };
}

/** Writes a digest into DATA_DIR/audit-digests/audit-digest-<date>.json; returns the file's path and the digest. */
export async function writeDigest(db: Db, privateKey: KeyObject, dataDir: string): Promise<{ file: string; digest: AuditDigest }> {
  const digest = await createDigest(db, privateKey);
  const dir = path.join(dataDir, 'audit-digests');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `audit-digest-${digest.createdAt.replace(/[:.]/g, '-')}.json`);
  await writeFile(file, JSON.stringify(digest, null, 2) + '\n');
  return { file, digest };
}

/** writeDigest, answering the file's path only. */
export async function writeDigestFile(db: Db, privateKey: KeyObject, dataDir: string): Promise<string> {
  return (await writeDigest(db, privateKey, dataDir)).file;
}

export class DigestRefused extends Error {}

const isHead = (h: unknown): h is CheckpointHead =>
  typeof h === 'object' &&
  h !== null &&
  Number.isInteger((h as CheckpointHead).chain) &&
  Number.isInteger((h as CheckpointHead).seq) &&
  typeof (h as CheckpointHead).hash === 'string';

/**
 * Checks a digest's form and Ed25519 signature with the public key, and returns it as a checkpoint for the
 * verifier. Throws DigestRefused (a sentence for the operator) when it is malformed or its signature does not hold.
 */
export function checkpointOfDigest(text: string, publicKey: KeyObject): Checkpoint {
  let d: AuditDigest;
  try {
    d = JSON.parse(text) as AuditDigest;
  } catch {
    throw new DigestRefused('the digest is not JSON');
  }
  if (
    d?.format !== DIGEST_FORMAT ||
    !Array.isArray(d.heads) ||
    !d.heads.every(isHead) ||
    typeof d.signature !== 'string' ||
    !Number.isInteger(d.chainCount)
  ) {
    throw new DigestRefused(`the digest is not an audit digest (${DIGEST_FORMAT})`);
  }
  const { signature, ...fields } = d;
  if (!signatureHolds(fields, signature, publicKey)) {
    throw new DigestRefused(
      `the digest's signature does not match its contents and key ${keyIdOf(publicKey)}: refused (altered, or signed with another key)`,
    );
  }
  return { label: `the digest of ${d.createdAt}`, chainCount: d.chainCount, heads: d.heads };
}

/** The public key to check digests with: a PEM file given, else derived from the server's signing key. */
export async function loadVerifyKey(publicKeyFile: string | undefined, source: SigningKeySource): Promise<KeyObject> {
  if (publicKeyFile) return createPublicKey(await readFile(publicKeyFile, 'utf8'));
  if (source.pem) return createPublicKey(createPrivateKey(source.pem));
  try {
    return createPublicKey(await readFile(publicKeyFileOf(source.file), 'utf8'));
  } catch {
    return createPublicKey(createPrivateKey(await readFile(source.file, 'utf8')));
  }
}
