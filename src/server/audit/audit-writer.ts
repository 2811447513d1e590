// The one audit writer (DESIGN.md §6, STYLE habit 5). Repositories call writeAudit inside the transaction
// of the change it records, so no change is committed without its audit row.
import { sql } from 'drizzle-orm';
import type { AuditAction, AuditResourceType } from '../../contracts/audit';
import { staffDisplayName, type Actor, type RequestMeta } from '../context/actor';
import { hotStatement, slotValues, type Db, type DbOrTx, type SlotValues } from '../db/client';
import { lastStatement, type LastStatement } from '../db/pipelined-transaction';
import { hashedFields, type AuditRowFields } from './audit-hash';
import { sealAuditPayload, type AuditPayload } from './audit-payload';
import { canonicalSegments, storableText, toJsonValue, type JsonValue } from './canonical-json';

/** Who did it, as the audit row names them. */
export interface AuditActor {
  userId: string;
  userName: string;
  facility?: string | null;
}

export interface AuditEntry {
  actor: AuditActor;
  meta: RequestMeta;
  action: AuditAction;
  resourceType: AuditResourceType;
  resourceId?: string | number | null;
  patientId?: number | null;
  /**
   * Small event details kept in the chain (e.g. `{ changed: ['dosage'], version: 3 }`), never clinical content: that
   * goes in `payload`.
   */
  oldValues?: unknown;
  newValues?: unknown;
  /**
   * The clinical content of a change (the row before and after): kept out of the chain, sealed in audit_payloads,
   * chained as its salted hash, and shreddable (decision 042).
   */
  payload?: AuditPayload;
  /** e.g. { type: 'BREAK_GLASS', reason } or { type: 'CONSENT' } (DESIGN.md §4). */
  complianceFlags?: unknown;
}

export function auditActorOf(actor: Actor): { userId: string; userName: string; facility: string | null } {
  if (actor.kind === 'patient') {
    return { userId: `patient:${actor.patientId}`, userName: `Patient ${actor.patientId}`, facility: null };
  }
  return { userId: actor.userId, userName: staffDisplayName(actor), facility: actor.facility };
}

// Column widths of audit_logs (schema.ts); longer values are cut rather than failing the caller's change.
const clip = (value: string | null | undefined, max: number): string | null =>
  value === null || value === undefined ? null : storableText(value.slice(0, max));

/** The row's columns, normalized exactly as PostgreSQL will give them back, so the hash is reproducible. */
export function auditRowFields(entry: AuditEntry): AuditRowFields {
  const { actor, meta } = entry;
  const { patientId } = entry;
  if (patientId !== undefined && patientId !== null && !(Number.isInteger(patientId) && Math.abs(patientId) <= 2_147_483_647)) {
    throw new TypeError(`audit patientId must be an integer patient id, got ${patientId}`);
  }
  return {
    userId: clip(actor.userId, 256) ?? '',
    userName: clip(actor.userName, 256) ?? '',
    action: entry.action,
    resourceType: entry.resourceType,
    resourceId: entry.resourceId === undefined || entry.resourceId === null ? null : clip(String(entry.resourceId), 256),
    patientId: entry.patientId ?? null,
    oldValues: toJsonValue(entry.oldValues),
    newValues: toJsonValue(entry.newValues),
    ipAddress: clip(meta.ip, 64),
    userAgent: clip(meta.userAgent, 512),
    sessionId: clip(meta.sessionHash, 64),
    facility: clip(actor.facility, 200),
    complianceFlags: toJsonValue(entry.complianceFlags),
  };
}

// The values only the database knows, in canonical key order: nhr_audit_append (migration 0004) fills them in
// between the five text segments in exactly this order.
const DATABASE_HOLES = ['chain', 'chainSeq', 'id', 'timestamp'] as const;

/** A JSON value as the text a jsonb parameter takes (null stays SQL NULL). */
export function jsonText(value: JsonValue): string | null {
  return value === null ? null : JSON.stringify(value);
}

/**
 * Appends one row to an audit chain with one call of nhr_audit_append: it advances the chain head of this
 * database connection (whose row lock, held until the caller commits, serializes that chain's writers),
 * hashes the row in the database from the canonical JSON built here around the values only the database
 * knows (chain, position, id, timestamp), and inserts it.
 * Call it late in the transaction: another writer on the same chain waits from here until this commits.
 * Under REPEATABLE READ or SERIALIZABLE a concurrent writer on the same chain makes this fail with a
 * serialization error (retry the transaction); a chain never forks.
 */
export async function writeAudit(tx: DbOrTx, entry: AuditEntry): Promise<number> {
  const [row] = await auditAppend(tx, auditAppendValues(entry));
  return Number(row!.id);
}

/** writeAudit's statement with this entry's values, for a transaction to send together with its COMMIT. */
export const auditAppendOf = (entry: AuditEntry): LastStatement => lastStatement(auditAppend, auditAppendValues(entry));

/** The values of one nhr_audit_append call: the row's columns as the hash took them, its JSON as text, the sealed payload. */
type AuditAppendSlots = Pick<
  AuditRowFields,
  'userId' | 'userName' | 'action' | 'resourceType' | 'resourceId' | 'patientId' | 'ipAddress' | 'userAgent' | 'sessionId' | 'facility'
> & {
  s0: string;
  s1: string;
  s2: string;
  s3: string;
  s4: string;
  oldValues: string | null;
  newValues: string | null;
  complianceFlags: string | null;
  payloadHash: string | null;
  payloadSalt: string | null;
  payloadCiphertext: string | null;
};

// A hot statement: each connection plans the append once (issue 11), and it goes out before the COMMIT sent behind it.
const auditAppend = hotStatement<AuditAppendSlots, { id: string | number }>(
  'nhr_audit_append_hot',
  (slot) => sql`SELECT nhr_audit_append(${slot.s0}, ${slot.s1}, ${slot.s2}, ${slot.s3}, ${slot.s4}, ${slot.userId}, ${slot.userName},
    ${slot.action}, ${slot.resourceType}, ${slot.resourceId}, ${slot.patientId}, ${slot.oldValues}, ${slot.newValues},
    ${slot.ipAddress}, ${slot.userAgent}, ${slot.sessionId}, ${slot.facility}, ${slot.complianceFlags},
    ${slot.payloadHash}, ${slot.payloadSalt}, ${slot.payloadCiphertext}) AS id`,
);

function auditAppendValues(entry: AuditEntry): SlotValues<AuditAppendSlots> {
  // The payload, when there is one, is sealed and hashed here; nhr_audit_append chains the hash and stores the sealed
  // payload in the same call (migration 0043), so the two never exist apart.
  const sealed = entry.payload ? sealAuditPayload(entry.payload) : null;
  const f: AuditRowFields = { ...auditRowFields(entry), payloadHash: sealed?.hash ?? null };
  const { segments, holes } = canonicalSegments(hashedFields(f), DATABASE_HOLES);
  if (holes.join() !== DATABASE_HOLES.join()) throw new Error(`audit hash holes out of order: ${holes.join()}`);
  const [s0, s1, s2, s3, s4] = segments as [string, string, string, string, string];
  // The row's own columns as the hash took them, then the rest; a later part wins, so the JSON columns are the texts.
  return slotValues(f, {
    s0,
    s1,
    s2,
    s3,
    s4,
    oldValues: jsonText(f.oldValues),
    newValues: jsonText(f.newValues),
    complianceFlags: jsonText(f.complianceFlags),
    payloadHash: sealed?.hash ?? null,
    payloadSalt: sealed?.salt ?? null,
    payloadCiphertext: sealed?.ciphertext ?? null,
  });
}

/**
 * Runs `work` in a transaction and writes its audit row (built from the result) in the same transaction:
 * the read or change and its audit row commit together or not at all. `audit` may return null to skip.
 */
export async function withAudit<T>(db: Db, work: (tx: DbOrTx) => Promise<T>, audit: (result: T) => AuditEntry | null): Promise<T> {
  return db.transaction(async (tx) => {
    const result = await work(tx);
    const entry = audit(result);
    if (entry) await writeAudit(tx, entry);
    return result;
  });
}
