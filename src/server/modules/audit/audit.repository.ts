// Audit log reads (SPEC §7). Rows are only ever written through src/server/audit/audit-writer.
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { personIdsSql } from '../../db/joined-patients';
import { auditLogs, auditPayloads } from '../../db/schema';
import type { StoredAuditValues } from './audit-values';
import { auditPayloadJoin, auditValueColumns } from './audit-values.repository';

export interface AuditLogCriteria {
  userId?: string | undefined;
  patientId?: number | undefined;
  resourceType?: string | undefined;
  action?: string | undefined;
  /** Inclusive lower bound. */
  from?: Date | undefined;
  /** Exclusive upper bound. */
  before?: Date | undefined;
  /** Only rows older than this row, in the list's order (time, then id): the next page. */
  beforeId?: number | undefined;
  limit: number;
}

/** A stored row: its values as stored (the service presents them, audit-values.ts). */
export interface AuditLogRow extends StoredAuditValues {
  id: number;
  userId: string;
  userName: string;
  action: string;
  resourceId: string | null;
  patientId: number | null;
  ipAddress: string | null;
  userAgent: string | null;
  timestamp: Date;
  sessionId: string | null;
  facility: string | null;
  complianceFlags: unknown;
}

/** Newest first. Each filter has an index: (user_id|patient_id|action, timestamp), or timestamp alone. */
export async function selectAuditLogs(db: DbOrTx, c: AuditLogCriteria): Promise<AuditLogRow[]> {
  const conditions: SQL[] = [];
  if (c.userId !== undefined) conditions.push(eq(auditLogs.userId, c.userId));
  // Audit rows keep the id they were written with: a patient's rows are those of every record joined with it (decision 048).
  if (c.patientId !== undefined) conditions.push(sql`${auditLogs.patientId} = ANY(${personIdsSql(sql`${c.patientId}::int`)})`);
  if (c.resourceType !== undefined) conditions.push(eq(auditLogs.resourceType, c.resourceType));
  if (c.action !== undefined) conditions.push(eq(auditLogs.action, c.action));
  if (c.from) conditions.push(gte(auditLogs.timestamp, c.from));
  if (c.before) conditions.push(lt(auditLogs.timestamp, c.before));
  if (c.beforeId !== undefined) {
    conditions.push(
      sql`(${auditLogs.timestamp}, ${auditLogs.id}) < (SELECT p.timestamp, p.id FROM audit_logs p WHERE p.id = ${c.beforeId})`,
    );
  }
  return db
    .select({
      id: auditLogs.id,
      userId: auditLogs.userId,
      userName: auditLogs.userName,
      action: auditLogs.action,
      resourceId: auditLogs.resourceId,
      patientId: auditLogs.patientId,
      ...auditValueColumns(),
      ipAddress: auditLogs.ipAddress,
      userAgent: auditLogs.userAgent,
      timestamp: auditLogs.timestamp,
      sessionId: auditLogs.sessionId,
      facility: auditLogs.facility,
      complianceFlags: auditLogs.complianceFlags,
    })
    .from(auditLogs)
    .leftJoin(auditPayloads, auditPayloadJoin())
    .where(and(...conditions))
    .orderBy(desc(auditLogs.timestamp), desc(auditLogs.id))
    .limit(c.limit);
}
