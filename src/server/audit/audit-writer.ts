// The one audit writer (DESIGN.md §6, STYLE habit 5). Repositories call writeAudit inside the transaction
// of the change it records, so no change is committed without its audit row.
import { sql, type SQL } from 'drizzle-orm';
import type { AuditAction, AuditResourceType } from '../../contracts/audit';
import { staffDisplayName, type Actor, type RequestMeta } from '../context/actor';
import { preparedRows, type Db, type DbOrTx } from '../db/client';
import { hashedFields, type AuditRowFields } from './audit-hash';
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
  oldValues?: unknown;
  newValues?: unknown;
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

const jsonText = (value: JsonValue): string | null => (value === null ? null : JSON.stringify(value));

/**
 * Appends one row to an audit chain with one call of nhr_audit_append: it advances the chain head of this
 * database connection (whose row lock, held until the caller commits, serializes that chain's writers),
 * hashes the row in the database from the canonical JSON built here around the values only the database
 * knows (chain, position, id, timestamp), and inserts it.
 * Call it late in the transaction: another writer on the same chain waits from here until this commits.
 * Under REPEATABLE READ or SERIALIZABLE a concurrent writer on the same chain makes this fail with a
 * serialization error (retry the transaction); a chain never forks.
 */
export async function writeAudit(tx: DbOrTx, entry: AuditEntry): Promise<void> {
  const f = auditRowFields(entry);
  const { segments, holes } = canonicalSegments(hashedFields(f), DATABASE_HOLES);
  if (holes.join() !== DATABASE_HOLES.join()) throw new Error(`audit hash holes out of order: ${holes.join()}`);
  const [s0, s1, s2, s3, s4] = segments;
  // A named statement: each connection plans the append once (issue 11).
  await preparedRows(
    tx,
    'nhr_audit_append',
    sql`SELECT nhr_audit_append(${s0}, ${s1}, ${s2}, ${s3}, ${s4}, ${f.userId}, ${f.userName},
    ${f.action}, ${f.resourceType}, ${f.resourceId}, ${f.patientId}, ${jsonText(f.oldValues)}, ${jsonText(f.newValues)},
    ${f.ipAddress}, ${f.userAgent}, ${f.sessionId}, ${f.facility}, ${jsonText(f.complianceFlags)})`,
  );
}

/**
 * An audit row for a read whose results only the same statement knows (issue 11: the read and its audit row in one
 * round trip). `newValues` is the row's new_values without `idsKey` and `countKey`, which the statement fills with
 * the ids `ids` yields (an int[] expression) and their number; with `patientFromSingleId` the row names the patient
 * when exactly one id was found, else `patientId`.
 */
export interface AuditEntryWithIds extends Omit<AuditEntry, 'newValues' | 'patientId'> {
  newValues: Record<string, unknown>;
  idsKey: string;
  countKey: string;
  patientFromSingleId: boolean;
  patientId?: number | null;
}

const ROW_HOLES_WITH_IDS = ['chain', 'chainSeq', 'id', 'newValues', 'patientId', 'timestamp'] as const;

/**
 * The SQL expression that appends `entry` (nhr_audit_append_ids, migration 0023) with the ids of `ids`: put it in
 * the statement that reads them, so the read and its row commit together in one round trip. Its text is the same
 * for every entry (all values are bound), so the statement around it can be a named, prepared one.
 */
export function auditAppendWithIds(entry: AuditEntryWithIds, ids: SQL): SQL {
  const newValues = toJsonValue(entry.newValues);
  if (newValues === null || typeof newValues !== 'object' || Array.isArray(newValues)) throw new TypeError('audit newValues must be an object');
  if (entry.idsKey in newValues || entry.countKey in newValues) throw new TypeError('audit newValues must leave out the keys the statement fills');
  const nv = canonicalSegments(newValues, [entry.idsKey, entry.countKey]);
  if (nv.holes[0] !== entry.idsKey) throw new Error('audit idsKey must sort before countKey');
  const [nvHead, nvMid, nvTail] = nv.segments;
  // The ids are a JSON array: its brackets go around the list the statement writes.
  const head = `${nvHead}[`;
  const mid = `]${nvMid}`;
  const f = auditRowFields({ ...entry, newValues: null, patientId: entry.patientId ?? null });
  const { newValues: _nv, patientId: _p, ...rest } = hashedFields(f);
  const { segments, holes } = canonicalSegments(rest, ROW_HOLES_WITH_IDS);
  if (holes.join() !== ROW_HOLES_WITH_IDS.join()) throw new Error(`audit hash holes out of order: ${holes.join()}`);
  const [s0, s1, s2, s3, s4, s5, s6] = segments;
  return sql`nhr_audit_append_ids(${s0}, ${s1}, ${s2}, ${s3}, ${s4}, ${s5}, ${s6}, ${head}, ${mid}, ${nvTail}, ${ids},
    ${entry.patientFromSingleId}, ${f.patientId}::int, ${f.userId}, ${f.userName}, ${f.action}, ${f.resourceType}, ${f.resourceId},
    ${jsonText(f.oldValues)}::jsonb, ${f.ipAddress}, ${f.userAgent}, ${f.sessionId}, ${f.facility}, ${jsonText(f.complianceFlags)}::jsonb)`;
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
