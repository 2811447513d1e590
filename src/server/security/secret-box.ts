// Secrets the server must read back but nobody else should (issue 12: "a second factor that staff cannot read"): the
// staff TOTP seeds are sealed with AES-256-GCM under a key kept outside the database (MFA_SECRET_KEY, else the file
// MFA_SECRET_KEY_FILE, default DATA_DIR/mfa-secret.key, created on first use with mode 0600). A database dump or a
// DBA's query shows `v1.<iv>.<tag>.<ciphertext>`, not a seed. Values written before sealing existed (no `v1.` prefix)
// are read as they are; the next enrolment seals them. The audit payloads (decision 042) are sealed the same way under
// a key of their own (AUDIT_PAYLOAD_KEY, else DATA_DIR/audit-payload.key): each spec names its key for the messages.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface SecretKeySpec {
  /** Base64 of 32 bytes, from the key's variable (MFA_SECRET_KEY, AUDIT_PAYLOAD_KEY). */
  value: string | undefined;
  /** The key file, used when no value is given. */
  file: string;
  /** The variable that gives the key, named in errors (default MFA_SECRET_KEY). */
  name?: string;
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
  const name = spec.name ?? 'MFA_SECRET_KEY';
  if (key.length !== 32) throw new Error(`${name}: expected 32 bytes in base64 (${name} or its file)`);
  return key;
}

/** Whether the key can be had without creating it: a value is given or its file exists (a checker must not make one). */
export function secretKeyExists(spec: SecretKeySpec): boolean {
  return spec.value !== undefined || (spec.file !== '' && existsSync(spec.file));
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

/** Whether `stored` is in the sealed format (a reader that must never take plain text checks this first). */
export const isSealed = (stored: string): boolean => stored.startsWith(PREFIX);

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
