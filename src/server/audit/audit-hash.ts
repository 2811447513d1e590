// The audit hash chains (DESIGN.md §6): hash = sha256(prev_hash || canonical JSON of the row), where the
// row is every column except prev_hash and hash themselves, including id, chain, position and timestamp.
// The log is AUDIT_CHAINS independent chains so that concurrent writers do not all queue on one lock.
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { canonicalJson, type JsonValue } from './canonical-json';

/** prev_hash of the first row of each chain. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * Chains in audit_chain_head (seeded by migration 0004). A transaction writes all its rows to one chain: the first no
 * other transaction holds, starting from pg_backend_pid() % 16 + 1 (nhr_audit_chain_take, migration 0057).
 */
export const AUDIT_CHAINS = 16;

/** The columns the writer fills from an audit entry (all but id, timestamp and the hashes). */
export interface AuditRowFields {
  userId: string;
  userName: string;
  action: string;
  resourceType: string;
  resourceId: string | null;
  patientId: number | null;
  oldValues: JsonValue;
  newValues: JsonValue;
  ipAddress: string | null;
  userAgent: string | null;
  sessionId: string | null;
  facility: string | null;
  complianceFlags: JsonValue;
  /**
   * sha256(salt hex || canonical payload) when the row's payload is in audit_payloads (decision 042). Chained only
   * when not null: rows without one (every row written before migration 0043) hash exactly as before.
   */
  payloadHash?: string | null;
}

export interface AuditChainRow extends AuditRowFields {
  id: number;
  chain: number;
  chainSeq: number;
  /** UTC with microseconds, as auditTimestampText writes it: 2025-01-31T08:15:02.123456Z */
  timestamp: string;
}

/** The fields in the shape that is hashed (these keys plus id, chain, chainSeq and timestamp, which the database fills). */
export function hashedFields(f: AuditRowFields): Record<string, JsonValue> {
  return {
    userId: f.userId,
    userName: f.userName,
    action: f.action,
    resourceType: f.resourceType,
    resourceId: f.resourceId,
    patientId: f.patientId,
    oldValues: f.oldValues,
    newValues: f.newValues,
    ipAddress: f.ipAddress,
    userAgent: f.userAgent,
    sessionId: f.sessionId,
    facility: f.facility,
    complianceFlags: f.complianceFlags,
    ...(f.payloadHash === undefined || f.payloadHash === null ? {} : { payloadHash: f.payloadHash }),
  };
}

// The hashed keys of a chain row in canonical (sorted) order, each with its JSON key prefix: building the
// canonical text directly is what keeps verifying a million rows fast.
const CHAIN_ROW_KEYS = [
  ...Object.keys(hashedFields({ payloadHash: '' } as AuditRowFields)),
  'id',
  'chain',
  'chainSeq',
  'timestamp',
].sort() as (keyof AuditChainRow)[];
const KEY_PREFIXES = CHAIN_ROW_KEYS.map((k, i) => `${i === 0 ? '{' : ','}${JSON.stringify(k)}:`);

/** canonicalJson of the row's hashed fields (every column but prev_hash and hash; payloadHash only when not null). */
export function auditRowCanonical(row: AuditChainRow): string {
  let out = '';
  for (let i = 0; i < CHAIN_ROW_KEYS.length; i++) {
    const key = CHAIN_ROW_KEYS[i]!;
    const value = row[key];
    // Never the first key ('action' is), so leaving it out keeps the '{' of the first prefix.
    if (key === 'payloadHash' && (value === null || value === undefined)) continue;
    out += KEY_PREFIXES[i]! + canonicalJson(value as JsonValue);
  }
  return `${out}}`;
}

export function auditRowHash(prevHash: string, row: AuditChainRow): string {
  return createHash('sha256')
    .update(prevHash + auditRowCanonical(row), 'utf8')
    .digest('hex');
}

/** A timestamptz expression as the canonical text of the chain (same text on every server and driver). */
export function auditTimestampText(expression: SQL): SQL {
  return sql`to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** The same text from a JavaScript Date (millisecond precision), for bulk loaders. */
export function auditTimestampOf(date: Date): string {
  return `${date.toISOString().slice(0, -1)}000Z`;
}
