// What a read of audit rows selects to show their old and new values (audit-values.ts): the chained values, the
// payload hash, the payload row (joined by primary key, only for rows that have a payload, so a page or a report's
// detail list reads its payloads in the same query) and whether the clinical row is sealed (sealedFlagSql).
import { and, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { auditLogs, auditPayloads } from '../../db/schema';
import { sealedFlagSql } from '../records/present';

/** For a select on audit_logs with auditPayloadJoin: the columns of StoredAuditValues. */
export const auditValueColumns = () => ({
  resourceType: auditLogs.resourceType,
  oldValues: auditLogs.oldValues,
  newValues: auditLogs.newValues,
  payloadHash: auditLogs.payloadHash,
  payloadRow: sql<boolean>`(${auditPayloads.auditId} IS NOT NULL)`,
  payloadSalt: auditPayloads.salt,
  payloadCiphertext: auditPayloads.ciphertext,
  sealed: sealedFlagSql(auditLogs.resourceType, auditLogs.resourceId),
});

/** The condition of `.leftJoin(auditPayloads, auditPayloadJoin())`. */
export const auditPayloadJoin = (): SQL => and(isNotNull(auditLogs.payloadHash), eq(auditPayloads.auditId, auditLogs.id))!;

/** The same for a raw query on `audit_logs <alias>`: the select list (after old and new values) and the join. */
export function auditValueSql(alias: string): { columns: SQL; join: SQL } {
  const a = sql.raw(alias);
  const p = sql.raw(`${alias}_payload`);
  return {
    columns: sql`${a}.resource_type AS "resourceType", ${a}.old_values AS "oldValues", ${a}.new_values AS "newValues",
      ${a}.payload_hash AS "payloadHash", (${p}.audit_id IS NOT NULL) AS "payloadRow", ${p}.salt AS "payloadSalt",
      ${p}.ciphertext AS "payloadCiphertext", ${sealedFlagSql(sql`${a}.resource_type`, sql`${a}.resource_id`)} AS "sealed"`,
    join: sql`LEFT JOIN audit_payloads ${p} ON ${a}.payload_hash IS NOT NULL AND ${p}.audit_id = ${a}.id`,
  };
}
