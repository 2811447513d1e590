// Audit entries for tests, and a typed view of raw query results.
import { sql } from 'drizzle-orm';
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
