// A record-access grant and its audit row in one statement (issue 11, docs/decisions/015 and 028): the cached actor
// confirmed and the per-user grant limit counted (when given), the patient checked and locked, the grant inserted and
// the VIEW PATIENT row (naming the new grant's id) appended in one round trip, as one named prepared statement.
import { sql } from 'drizzle-orm';
import { auditAppendSql, sqlJson, type StatementAuditEntry } from '../../audit/audit-in-statement';
import { countCte, GATE_COLUMNS, gateCtes, gateName, type GateColumns, type StatementGate } from '../../context/statement-gate';
import { preparedRows, type Db } from '../../db/client';
import { survivorIdSql } from '../../db/joined-patients';
import type { GrantRow, NewGrant } from './access.repository';

/** The grant's audit row; `grantId` in new_values is filled with the inserted grant's id. */
export interface GrantAudit extends Omit<StatementAuditEntry, 'newValues'> {
  newValues: Record<string, unknown>;
}

/** The gate's answer (decision 059) and, when it passed, what became of the grant. */
export type GrantOutcome = { gate: GateColumns } & (
  | { kind: 'stored'; grant: GrantRow }
  /** No such patient: nothing written. */
  | { kind: 'missing' }
  /** The patient was joined into `survivorId` (decision 048): nothing written. */
  | { kind: 'joined'; survivorId: number }
  /** The gate was closed: nothing written. */
  | { kind: 'closed' }
);

/** Stores the grant and its audit row, after the actor's confirmation and the rate limit when given. */
export async function insertGrantAudited(db: Db, grant: NewGrant, audit: GrantAudit, checks: StatementGate = {}): Promise<GrantOutcome> {
  const entry: StatementAuditEntry = {
    ...audit,
    newValues: { ...(audit.newValues as Record<string, never>), grantId: sqlJson(sql`g.id`) },
  };
  // The gate (`lim`: the actor's confirmation and the grant limit, decision 028) runs first; nothing else runs without it.
  const [row] = await preparedRows<GateColumns & { id: number | null; audited: number; survivorId: number | null } & Omit<GrantRow, 'id'>>(
    db,
    `nhr_grant_audited${gateName(checks)}`,
    sql`WITH ${gateCtes(checks)}
             p AS (SELECT id FROM patients WHERE id = ${grant.patientId} AND replaced_by IS NULL AND (SELECT ok FROM lim) FOR KEY SHARE),
             g AS (INSERT INTO access_grants (user_id, patient_id, consent, reason, granted_at, expires_at)
                   SELECT ${grant.userId}, p.id, ${grant.consent}, ${grant.reason}, ${grant.grantedAt.toISOString()}::timestamptz,
                          ${grant.expiresAt.toISOString()}::timestamptz FROM p
                   RETURNING id, patient_id, consent, reason, granted_at, expires_at),
             a AS (SELECT ${auditAppendSql(entry)} AS audit_id FROM g)${countCte(checks)}
        SELECT ${GATE_COLUMNS},
               g.id, g.patient_id AS "patientId", g.consent, g.reason,
               extract(epoch FROM g.granted_at)::float8 * 1000 AS "grantedAt", extract(epoch FROM g.expires_at)::float8 * 1000 AS "expiresAt",
               (SELECT count(*)::int FROM a) AS audited,
               (SELECT ${survivorIdSql(sql`jp.id`)} FROM patients AS jp WHERE jp.id = ${grant.patientId} AND jp.replaced_by IS NOT NULL)
                 AS "survivorId"
          FROM lim LEFT JOIN g ON true`,
  );
  const gate: GateColumns = row
    ? { actorOk: row.actorOk, limitOk: row.limitOk, limitResetMs: row.limitResetMs }
    : { actorOk: false, limitOk: false, limitResetMs: null };
  if (!row || !gate.limitOk) return { gate, kind: 'closed' };
  if (row.id === null) return row.survivorId === null ? { gate, kind: 'missing' } : { gate, kind: 'joined', survivorId: row.survivorId };
  if (row.audited !== 1) throw new Error('the grant was stored without its audit row');
  return {
    gate,
    kind: 'stored',
    grant: {
      id: row.id,
      patientId: row.patientId,
      consent: row.consent,
      reason: row.reason,
      grantedAt: new Date(Math.round(Number(row.grantedAt))),
      expiresAt: new Date(Math.round(Number(row.expiresAt))),
    },
  };
}
