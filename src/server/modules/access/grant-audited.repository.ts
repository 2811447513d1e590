// A record-access grant and its audit row in one statement (issue 11, docs/decisions/015 and 028): the cached actor
// confirmed and the per-user grant limit counted (when given), the patient checked and locked, the grant inserted and
// the VIEW PATIENT row (naming the new grant's id) appended in one round trip, as one named prepared statement.
import { sql, type SQL } from 'drizzle-orm';
import { auditAppendSql, sqlJson, type StatementAuditEntry } from '../../audit/audit-in-statement';
import { preparedRows, type Db } from '../../db/client';
import type { GrantRow, NewGrant } from './access.repository';

/** The grant's audit row; `grantId` in new_values is filled with the inserted grant's id. */
export interface GrantAudit extends Omit<StatementAuditEntry, 'newValues'> {
  newValues: Record<string, unknown>;
}

/** What else the grant's statement does (issue 11, decision 028): the same parts as the search's. */
export interface GrantChecks {
  /** The request's rate limit (http/rate-limit's limitInStatement): no grant and no row when over it. */
  limit?: { gate: SQL; count: (when: SQL) => SQL };
  /** The cached actor's confirmation (context/session's actorCheckSql): nothing else runs unless it holds. */
  actor?: SQL;
}

export type GrantOutcome =
  | { kind: 'stored'; grant: GrantRow }
  /** No such patient: nothing written. */
  | { kind: 'missing' }
  | { kind: 'limited'; resetMs: number | null }
  | { kind: 'unconfirmed' };

/** Stores the grant and its audit row, after the actor's confirmation and the rate limit when given. */
export async function insertGrantAudited(db: Db, grant: NewGrant, audit: GrantAudit, checks: GrantChecks = {}): Promise<GrantOutcome> {
  const entry: StatementAuditEntry = {
    ...audit,
    newValues: { ...(audit.newValues as Record<string, never>), grantId: sqlJson(sql`g.id`) },
  };
  const { limit, actor } = checks;
  const actorOk = actor ? sql`(SELECT ok FROM actor_ok)` : sql`true`;
  const gate = limit ? limit.gate : sql`SELECT true AS ok, NULL::float8 AS reset_ms`;
  const [row] = await preparedRows<
    { id: number | null; audited: number; actorOk: boolean; limitOk: boolean; limitResetMs: number | null } & Omit<GrantRow, 'id'>
  >(
    db,
    `nhr_grant_audited${limit ? '_limited' : ''}${actor ? '_actor' : ''}`,
    sql`WITH ${actor ? sql`${actor},` : sql``}
             lim AS MATERIALIZED (SELECT ${actorOk} AS actor_ok, ${actorOk} AND g.ok AS ok, g.reset_ms FROM (${gate}) AS g),
             p AS (SELECT id FROM patients WHERE id = ${grant.patientId} AND (SELECT ok FROM lim) FOR KEY SHARE),
             g AS (INSERT INTO access_grants (user_id, patient_id, consent, reason, granted_at, expires_at)
                   SELECT ${grant.userId}, p.id, ${grant.consent}, ${grant.reason}, ${grant.grantedAt.toISOString()}::timestamptz,
                          ${grant.expiresAt.toISOString()}::timestamptz FROM p
                   RETURNING id, patient_id, consent, reason, granted_at, expires_at),
             a AS (SELECT ${auditAppendSql(entry)} AS audit_id FROM g)${
               limit
                 ? sql`,
             hit AS (${limit.count(sql`(SELECT actor_ok FROM lim)`)})`
                 : sql``
             }
        SELECT lim.actor_ok AS "actorOk", lim.ok AS "limitOk", lim.reset_ms AS "limitResetMs",
               g.id, g.patient_id AS "patientId", g.consent, g.reason,
               extract(epoch FROM g.granted_at)::float8 * 1000 AS "grantedAt", extract(epoch FROM g.expires_at)::float8 * 1000 AS "expiresAt",
               (SELECT count(*)::int FROM a) AS audited
          FROM lim LEFT JOIN g ON true`,
  );
  if (!row || !row.actorOk) return { kind: 'unconfirmed' };
  if (!row.limitOk) return { kind: 'limited', resetMs: row.limitResetMs };
  if (row.id === null) return { kind: 'missing' };
  if (row.audited !== 1) throw new Error('the grant was stored without its audit row');
  return {
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
