// Audit entries for tests, and a typed view of raw query results.
import { sql } from 'drizzle-orm';
import { auditRowHash, GENESIS_HASH, type AuditChainRow } from '../audit/audit-hash';
import type { AuditEntry } from '../audit/audit-writer';
import type { DbOrTx } from '../db/client';

export const testMeta = { ip: '10.0.0.7', userAgent: 'vitest', sessionHash: 'a'.repeat(64) } as const;

export function auditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    actor: { userId: 'user-1', userName: 'Ndapewa Nghipondoka', facility: 'Windhoek Central Hospital' },
    meta: { ...testMeta },
    action: 'VIEW',
    resourceType: 'PATIENT',
    resourceId: 42,
    patientId: 42,
    ...overrides,
  };
}

/** Rows of a raw `db.execute` result (the same shape on PGlite and node-postgres). */
export async function query<T = Record<string, unknown>>(db: DbOrTx, statement: ReturnType<typeof sql>): Promise<T[]> {
  const result = await db.execute(statement);
  return (result as unknown as { rows: T[] }).rows;
}

export async function auditRowCount(db: DbOrTx): Promise<number> {
  const [row] = await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM audit_logs`);
  return row!.n;
}

type StoredRow = AuditChainRow & { hash: string };
const chainRows = (tx: DbOrTx): Promise<StoredRow[]> =>
  query<StoredRow>(
    tx,
    sql`SELECT id::float8 AS id, chain, chain_seq::float8 AS "chainSeq", user_id AS "userId", user_name AS "userName",
      action, resource_type AS "resourceType", resource_id AS "resourceId", patient_id AS "patientId",
      old_values AS "oldValues", new_values AS "newValues", ip_address AS "ipAddress", user_agent AS "userAgent",
      session_id AS "sessionId", facility, compliance_flags AS "complianceFlags", payload_hash AS "payloadHash", hash,
      to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "timestamp"
      FROM audit_logs ORDER BY chain, chain_seq`,
  );

/** Hashes every chain as the writer would have (the writer puts one connection's rows on one chain). */
export async function rehashAll(tx: DbOrTx): Promise<void> {
  const prevOf = new Map<number, string>();
  for (const row of await chainRows(tx)) {
    const prev = prevOf.get(row.chain) ?? GENESIS_HASH;
    const hash = auditRowHash(prev, row);
    await tx.execute(sql`UPDATE audit_logs SET prev_hash = ${prev}, hash = ${hash} WHERE id = ${row.id}`);
    await tx.execute(
      sql`UPDATE audit_chain_head SET last_seq = ${row.chainSeq}, last_id = ${row.id}, prev_hash = ${prev}, last_hash = ${hash} WHERE chain = ${row.chain}`,
    );
    prevOf.set(row.chain, hash);
  }
}

/** Spreads the rows over all 16 chains, ids rising with positions, as 16 connections would have written them. */
export async function spreadOverAllChains(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`
    WITH n AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM audit_logs)
    UPDATE audit_logs a SET chain = (n.k % 16) + 1, chain_seq = 1000 + n.k / 16 + 1 FROM n WHERE n.id = a.id`);
  await tx.execute(sql`UPDATE audit_logs SET chain_seq = chain_seq - 1000`);
  await rehashAll(tx);
}
