// Shredding an audit payload (decision 042): for a sealed or erased item, its clinical content in the audit trail is
// destroyed while the chained event stays and `npm run audit:verify` still passes. The payload row is kept with its
// salt and ciphertext set to NULL and when, by whom and why; the shredding is itself an audit row (UPDATE AUDIT_PAYLOAD)
// in the same transaction.
import { sql } from 'drizzle-orm';
import type { RequestMeta } from '../context/actor';
import type { Db, DbOrTx } from '../db/client';
import { writeAudit, type AuditActor } from './audit-writer';

export interface ShredRequest {
  by: AuditActor;
  /** Why (e.g. "sealed item", "erasure request 2026-114"); at most 500 characters. */
  reason: string;
  /** Where the request came from; a script passes its own. */
  meta?: RequestMeta;
}

export type ShredOutcome = 'SHREDDED' | 'ALREADY_SHREDDED' | 'NO_PAYLOAD';

const SCRIPT_META: RequestMeta = { ip: '127.0.0.1', userAgent: 'nhr-script', sessionHash: null };

/** Shreds the payload of audit row `auditId`: NO_PAYLOAD when the row has none, ALREADY_SHREDDED when done before. */
export async function shredAuditPayload(db: Db, auditId: number, request: ShredRequest): Promise<ShredOutcome> {
  const reason = request.reason.trim();
  if (reason === '' || reason.length > 500) throw new RangeError('a shred reason of 1 to 500 characters is required');
  return db.transaction(async (tx) => {
    const outcome = await shredRow(tx, auditId, request.by, reason);
    if (outcome !== 'SHREDDED') return outcome;
    await writeAudit(tx, {
      actor: request.by,
      meta: request.meta ?? SCRIPT_META,
      action: 'UPDATE',
      resourceType: 'AUDIT_PAYLOAD',
      resourceId: auditId,
      patientId: await patientOf(tx, auditId),
      oldValues: { shredded: false },
      newValues: { shredded: true, reason },
    });
    return outcome;
  });
}

async function shredRow(tx: DbOrTx, auditId: number, by: AuditActor, reason: string): Promise<ShredOutcome> {
  const result = await tx.execute(sql`
    UPDATE audit_payloads SET salt = NULL, ciphertext = NULL, shredded_at = now(), shredded_by = ${by.userId},
      shred_reason = ${reason}
    WHERE audit_id = ${auditId} AND ciphertext IS NOT NULL
    RETURNING audit_id`);
  if ((result as unknown as { rows: unknown[] }).rows.length > 0) return 'SHREDDED';
  const found = await tx.execute(sql`SELECT 1 FROM audit_payloads WHERE audit_id = ${auditId}`);
  return (found as unknown as { rows: unknown[] }).rows.length > 0 ? 'ALREADY_SHREDDED' : 'NO_PAYLOAD';
}

async function patientOf(tx: DbOrTx, auditId: number): Promise<number | null> {
  const result = await tx.execute(sql`SELECT patient_id AS "patientId" FROM audit_logs WHERE id = ${auditId}`);
  return (result as unknown as { rows: { patientId: number | null }[] }).rows[0]?.patientId ?? null;
}
