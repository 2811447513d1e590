// A record-access grant and its audit row in one statement (issue 11, docs/decisions/015): the patient is checked
// and locked, the grant inserted and the VIEW PATIENT row (naming the new grant's id) appended in one round trip,
// as one named prepared statement.
import { sql } from 'drizzle-orm';
import { auditAppendSql, sqlJson, type StatementAuditEntry } from '../../audit/audit-in-statement';
import { preparedRows, type Db } from '../../db/client';
import type { GrantRow, NewGrant } from './access.repository';

/** The grant's audit row; `grantId` in new_values is filled with the inserted grant's id. */
export interface GrantAudit extends Omit<StatementAuditEntry, 'newValues'> {
  newValues: Record<string, unknown>;
}

/** Stores the grant and its audit row; null (nothing written) when the patient does not exist. */
export async function insertGrantAudited(db: Db, grant: NewGrant, audit: GrantAudit): Promise<GrantRow | null> {
  const entry: StatementAuditEntry = {
    ...audit,
    newValues: { ...(audit.newValues as Record<string, never>), grantId: sqlJson(sql`g.id`) },
  };
  const [row] = await preparedRows<GrantRow & { audited: number }>(
    db,
    'nhr_grant_audited',
    sql`WITH p AS (SELECT id FROM patients WHERE id = ${grant.patientId} FOR KEY SHARE),
             g AS (INSERT INTO access_grants (user_id, patient_id, consent, reason, granted_at, expires_at)
                   SELECT ${grant.userId}, p.id, ${grant.consent}, ${grant.reason}, ${grant.grantedAt.toISOString()}::timestamptz,
                          ${grant.expiresAt.toISOString()}::timestamptz FROM p
                   RETURNING id, patient_id, consent, reason, granted_at, expires_at),
             a AS (SELECT ${auditAppendSql(entry)} AS audit_id FROM g)
        SELECT g.id, g.patient_id AS "patientId", g.consent, g.reason,
               extract(epoch FROM g.granted_at)::float8 * 1000 AS "grantedAt", extract(epoch FROM g.expires_at)::float8 * 1000 AS "expiresAt",
               (SELECT count(*)::int FROM a) AS audited
          FROM g`,
  );
  if (!row) return null;
  if (row.audited !== 1) throw new Error('the grant was stored without its audit row');
  return { ...row, grantedAt: new Date(Math.round(Number(row.grantedAt))), expiresAt: new Date(Math.round(Number(row.expiresAt))) };
}
