// Audit payloads out of the hash chain (issue 23 item 4; docs/decisions/042-audit-payloads-out-of-the-chain.md): the
// old and new values of a change are sealed into audit_payloads, and the chained row carries only
// payload_hash = sha256(salt hex || canonical JSON of the payload). The salt (32 random bytes per payload) keeps the
// chained hash from confirming a guessed payload; it is sealed too, so a copy of the database without the key cannot
// either, and shredding removes it with the ciphertext. The key is AUDIT_PAYLOAD_KEY (config.auditPayloadKey), set once
// per process by configureAuditPayloads: writeAudit is called from many places with only a transaction in hand.
import { createHash, randomBytes } from 'node:crypto';
import { isSealed, secretBoxFor, secretKeyExists, type SecretBox, type SecretKeySpec } from '../security/secret-box';
import { canonicalJson, toJsonValue, type JsonValue } from './canonical-json';

/** What a change's audit row keeps out of the chain: the clinical content before and after. */
export interface AuditPayload {
  oldValues?: unknown;
  newValues?: unknown;
}

/** A payload as stored: both keys, null when absent. */
export interface PayloadValues {
  oldValues: JsonValue;
  newValues: JsonValue;
}

let keySpec: SecretKeySpec | null = null;

/**
 * Sets the key of this process's audit payloads: where the app is built (buildApp) and by the scripts that write or
 * check payloads. `null` forgets it. The key (or its file, created on first use) is read when first needed. Writing a
 * payload without a key fails: a payload is never stored in the clear.
 */
export function configureAuditPayloads(spec: SecretKeySpec | null): void {
  keySpec = spec;
}

/**
 * For checkers (npm run audit:verify): configures the key only when it exists (a value, or its file), never creating
 * one. Whether a key is now configured.
 */
export function configureAuditPayloadsIfKeyExists(spec: SecretKeySpec): boolean {
  configureAuditPayloads(secretKeyExists(spec) ? spec : null);
  return keySpec !== null;
}

/** The configured key's box, or null when this process has no payload key. */
export const auditPayloadBox = (): SecretBox | null => (keySpec ? secretBoxFor(keySpec) : null);

function requireBox(): SecretBox {
  const box = auditPayloadBox();
  if (!box) throw new Error('audit payload key not configured (configureAuditPayloads): the audit row was not written');
  return box;
}

/** The canonical JSON text of a payload, exactly as hashed and sealed. */
export function payloadCanonical(payload: AuditPayload): string {
  const values: PayloadValues = { oldValues: toJsonValue(payload.oldValues), newValues: toJsonValue(payload.newValues) };
  return canonicalJson(values as unknown as JsonValue);
}

export const payloadHashOf = (saltHex: string, canonical: string): string =>
  createHash('sha256')
    .update(saltHex + canonical, 'utf8')
    .digest('hex');

export interface SealedPayload {
  /** Goes into the chained row (audit_logs.payload_hash). */
  hash: string;
  /** audit_payloads.salt and .ciphertext: the sealed salt (hex) and the sealed canonical payload. */
  salt: string;
  ciphertext: string;
}

export function sealAuditPayload(payload: AuditPayload): SealedPayload {
  const sealer = requireBox();
  const canonical = payloadCanonical(payload);
  const saltHex = randomBytes(32).toString('hex');
  return { hash: payloadHashOf(saltHex, canonical), salt: sealer.seal(saltHex), ciphertext: sealer.seal(canonical) };
}

/** A payload row as read: both sealed columns, null after shredding. */
export interface StoredPayload {
  salt: string | null;
  ciphertext: string | null;
}

export type OpenedPayload =
  | { state: 'open'; values: PayloadValues; saltHex: string; canonical: string }
  | { state: 'shredded' }
  /** No payload row although the chained row has a payload hash (deleted). */
  | { state: 'missing' }
  /** No key in this process, or the sealed text does not open with it (changed, or sealed under another key). */
  | { state: 'unreadable'; reason: string };

/** Opens a payload row (null: there is none). Never throws: a reader shows what it could not open. */
export function openStoredPayload(stored: StoredPayload | null, key: SecretBox | null = auditPayloadBox()): OpenedPayload {
  if (!stored) return { state: 'missing' };
  if (stored.ciphertext === null || stored.salt === null) return { state: 'shredded' };
  if (!key) return { state: 'unreadable', reason: 'no audit payload key' };
  if (!isSealed(stored.ciphertext) || !isSealed(stored.salt)) return { state: 'unreadable', reason: 'not sealed' };
  try {
    const saltHex = key.open(stored.salt);
    const canonical = key.open(stored.ciphertext);
    const parsed = JSON.parse(canonical) as Partial<PayloadValues>;
    return { state: 'open', values: { oldValues: parsed.oldValues ?? null, newValues: parsed.newValues ?? null }, saltHex, canonical };
  } catch {
    return { state: 'unreadable', reason: 'does not open with the audit payload key' };
  }
}

/** What a reader shows for a payload that is not open (both old and new values show it). */
export function payloadPlaceholder(opened: Exclude<OpenedPayload, { state: 'open' }>): { shredded: true } | { unavailable: string } {
  if (opened.state === 'shredded') return { shredded: true };
  return { unavailable: opened.state === 'missing' ? 'missing' : 'unreadable' };
}
