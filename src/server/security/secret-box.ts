// Secrets the server must read back but nobody else should (issue 12: "a second factor that staff cannot read"): the
// staff TOTP seeds are sealed with AES-256-GCM under a key kept outside the database (MFA_SECRET_KEY, else the file
// MFA_SECRET_KEY_FILE, default DATA_DIR/mfa-secret.key, created on first use with mode 0600). A database dump or a
// DBA's query shows `v1.<iv>.<tag>.<ciphertext>`, not a seed. Values written before sealing existed (no `v1.` prefix)
// are read as they are; the next enrolment seals them.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface SecretKeySpec {
  /** Base64 of 32 bytes, from MFA_SECRET_KEY. */
  value: string | undefined;
  /** The key file, used when no value is given. */
  file: string;
}

export interface SecretBox {
  seal(plain: string): string;
  open(stored: string): string;
}

const PREFIX = 'v1.';
const b64 = (b: Buffer): string => b.toString('base64url');

function keyOf(spec: SecretKeySpec): Buffer {
  const text = spec.value ?? readOrCreate(spec.file);
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error('MFA secret key: expected 32 bytes in base64 (MFA_SECRET_KEY or its file)');
  return key;
}

function readOrCreate(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(path.dirname(file), { recursive: true });
    const text = `${randomBytes(32).toString('base64')}\n`;
    // 'wx': a second worker starting at the same moment does not overwrite the first one's key.
    try {
      writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8');
      throw e;
    }
    chmodSync(file, 0o600);
    return text;
  }
}

export function secretBox(spec: SecretKeySpec): SecretBox {
  const key = keyOf(spec);
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${PREFIX}${b64(iv)}.${b64(cipher.getAuthTag())}.${b64(ciphertext)}`;
    },
    open(stored) {
      if (!stored.startsWith(PREFIX)) return stored;
      const [iv, tag, ciphertext] = stored.slice(PREFIX.length).split('.');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64url'));
      decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext ?? '', 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

const boxes = new Map<string, SecretBox>();
/** One box per key (the key file is read once per process). */
export function secretBoxFor(spec: SecretKeySpec): SecretBox {
  const id = spec.value ?? `file:${spec.file}`;
  let box = boxes.get(id);
  if (!box) {
    box = secretBox(spec);
    boxes.set(id, box);
  }
  return box;
}
