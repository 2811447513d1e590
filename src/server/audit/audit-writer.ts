// The one audit writer (DESIGN.md §6, STYLE habit 5). Repositories call writeAudit inside the transaction
// of the change it records, so no change is committed without its audit row.
import { sql, type SQL } from 'drizzle-orm';
import type { AuditAction, AuditResourceType } from '../../contracts/audit';
import { staffDisplayName, type Actor, type RequestMeta } from '../context/actor';
import type { DbOrTx } from '../db/client';
import { AUDIT_CHAINS, auditTimestampText, hashedFields, type AuditRowFields } from './audit-hash';
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
  if (entry.patientId !== undefined && entry.patientId !== null && !Number.isSafeInteger(entry.patientId)) {
    throw new TypeError(`audit patientId must be an integer, got ${entry.patientId}`);
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

const jsonb = (value: JsonValue): SQL => (value === null ? sql`NULL` : sql`${JSON.stringify(value)}::jsonb`);

/**
 * Appends one row to an audit chain in ONE statement: it advances the chain-head row of this connection's
 * chain (whose row lock, held until the caller commits, serializes that chain's writers), computes the hash
 * in the database from the canonical JSON built here (the database supplies id, chain, position and
 * timestamp), and inserts the row.
 * Call it late in the transaction: another writer on the same chain waits from here until this commits.
 * Under REPEATABLE READ or SERIALIZABLE a concurrent writer on the same chain makes this fail with a
 * serialization error (retry the transaction); a chain never forks.
 */
export async function writeAudit(tx: DbOrTx, entry: AuditEntry): Promise<void> {
  const f = auditRowFields(entry);
  const ts = auditTimestampText(sql`statement_timestamp()`);
  const holeValues: Record<string, SQL> = {
    id: sql`n.id::text`,
    chain: sql`h.chain::text`,
    chainSeq: sql`(h.last_seq + 1)::text`,
    timestamp: sql`'"' || ${ts} || '"'`,
  };
  const { segments, holes } = canonicalSegments(hashedFields(f), Object.keys(holeValues));
  const canonical = sql.join(
    segments.flatMap((segment, i) => [sql`${segment}::text`, ...(i < holes.length ? [holeValues[holes[i]!]!] : [])]),
    sql` || `,
  );
  const result = await tx.execute(sql`
    WITH n AS MATERIALIZED (SELECT nextval('audit_logs_id_seq') AS id),
    head AS (
      UPDATE audit_chain_head h
      SET last_seq = h.last_seq + 1,
          last_id = n.id,
          prev_hash = h.last_hash,
          last_hash = encode(sha256(convert_to(h.last_hash || ${canonical}, 'UTF8')), 'hex')
      FROM n
      WHERE h.chain = pg_backend_pid() % ${sql.raw(String(AUDIT_CHAINS))} + 1
      RETURNING h.chain, h.last_seq, h.last_id, h.prev_hash, h.last_hash, ${ts} AS ts
    )
    INSERT INTO audit_logs (id, chain, chain_seq, user_id, user_name, action, resource_type, resource_id,
      patient_id, old_values, new_values, ip_address, user_agent, "timestamp", session_id, facility,
      compliance_flags, prev_hash, hash)
    SELECT last_id, chain, last_seq, ${f.userId}, ${f.userName}, ${f.action}, ${f.resourceType}, ${f.resourceId},
      ${f.patientId}::integer, ${jsonb(f.oldValues)}, ${jsonb(f.newValues)}, ${f.ipAddress}, ${f.userAgent},
      ts::timestamptz, ${f.sessionId}, ${f.facility}, ${jsonb(f.complianceFlags)}, prev_hash, last_hash
    FROM head
    RETURNING id`);
  // Without the chain's head row nothing is inserted: refuse rather than lose the audit row silently.
  if ((result as unknown as { rows: unknown[] }).rows.length !== 1) {
    throw new Error('audit chain head is missing: the audit row was not written');
  }
}
