// A record-access grant and its audit row in one statement (issue 11, docs/decisions/015 and 028): the cached actor
// confirmed and the per-user grant limit counted (when given), the patient checked and locked, the grant inserted and
// the VIEW PATIENT row (naming the new grant's id) appended, and the grant-volume alert raised over the hourly volume, in
// one round trip, as one named prepared statement.
import { sql, type SQL } from 'drizzle-orm';
import {
  auditAppendSlotted,
  auditSlotValues,
  newValueSlots,
  sqlJson,
  type AuditSlots,
  type StatementAuditEntry,
} from '../../audit/audit-in-statement';
import {
  countCte,
  GATE_COLUMNS,
  gateCtes,
  gateName,
  gateSlotted,
  gateSlotValues,
  type GateColumns,
  type GateShape,
  type GateSlots,
  type StatementGate,
} from '../../context/statement-gate';
import { hotStatement, slotValues, type Db, type Slots, type SlotValues } from '../../db/client';
import { reauthRuleSlotted, type ReauthSlots } from '../auth/mfa.repository';
import { grantVolumeAlertSlotted, type GrantVolumeSlots } from '../privacy/alerts.repository';
import { survivorIdSql } from '../../db/joined-patients';
import type { GrantRow, NewGrant } from './access.repository';

/** The grant's audit row; `grantId` in new_values is filled with the inserted grant's id. */
export interface GrantAudit extends Omit<StatementAuditEntry, 'newValues' | 'patientId'> {
  /** new_values besides grantId: each key's value is bound per request. */
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
  /** A fresh proof was needed and not made (mfa.repository's re-authentication rule): nothing written. */
  | { kind: 'reauth'; hasSecondFactor: boolean }
);

/**
 * What else the grant's statement does: the gate, the re-authentication rule (none for a system client), and the
 * grant-volume alert it raises over the hourly volume (every grant, a system client's too).
 */
export interface GrantChecks extends StatementGate {
  reauth?: ReauthSlots | null;
  volumeAlert: GrantVolumeSlots;
}

/** The grant's own values. */
interface GrantSlots {
  grantUserId: string;
  grantPatientId: number;
  grantConsent: boolean;
  grantReason: string | null;
  grantedAt: string;
  grantExpiresAt: string;
}
type Raw = Record<string, unknown>;
type GrantStatementRow = GateColumns & {
  id: number | null;
  audited: number;
  survivorId: number | null;
  reauthOk: boolean;
  hasSecondFactor: boolean;
} & Omit<GrantRow, 'id'>;

/** The grant's statement over slots (built once per gate shape and audit keys; decision 060). */
function grantSql(slot: Slots<Raw>, shape: GateShape & { reauth: boolean }, keys: readonly string[]): SQL {
  const gate = gateSlotted(slot as Slots<GateSlots>, shape);
  const g = slot as Slots<GrantSlots>;
  const audit = slot as Slots<AuditSlots>;
  const newValues = {
    ...Object.fromEntries(keys.map((key) => [key, sqlJson(sql`${slot[`value_${key}`] ?? sql`NULL`}::text`)])),
    grantId: sqlJson(sql`g.id`),
  };
  const rule = shape.reauth
    ? reauthRuleSlotted(slot as Slots<ReauthSlots>)
    : sql`SELECT false AS over_volume, false AS has_second_factor, true AS ok`;
  // The gate (`lim`: the actor's confirmation and the grant limit, decision 028) runs first, then the re-authentication
  // rule (`reauth`); nothing else runs without both, and the limit counts only a grant both let through.
  return sql`WITH ${gateCtes(gate)}
             reauth AS MATERIALIZED (${rule}),
             go AS MATERIALIZED (SELECT (SELECT ok FROM lim) AND (SELECT ok FROM reauth) AS ok),
             p AS (SELECT id FROM patients WHERE id = ${g.grantPatientId}::int AND replaced_by IS NULL AND (SELECT ok FROM go) FOR KEY SHARE),
             g AS (INSERT INTO access_grants (user_id, patient_id, consent, reason, granted_at, expires_at)
                   SELECT ${g.grantUserId}::text, p.id, ${g.grantConsent}::boolean, ${g.grantReason}::text, ${g.grantedAt}::timestamptz,
                          ${g.grantExpiresAt}::timestamptz FROM p
                   RETURNING id, patient_id, consent, reason, granted_at, expires_at),
             a AS (SELECT ${auditAppendSlotted(audit, newValues, sql`${g.grantPatientId}::int`)} AS audit_id FROM g),
             v AS (${grantVolumeAlertSlotted(
               slot as Slots<GrantVolumeSlots>,
               {
                 userId: sql`${g.grantUserId}::text`,
                 userName: audit.auditUserName,
                 facility: audit.auditFacility,
                 ip: audit.auditIp,
                 userAgent: audit.auditUserAgent,
               },
               sql`g`,
             )})${countCte(gate, sql`(SELECT ok FROM go)`)}
        SELECT ${GATE_COLUMNS}, (SELECT ok FROM reauth) AS "reauthOk", (SELECT has_second_factor FROM reauth) AS "hasSecondFactor",
               g.id, g.patient_id AS "patientId", g.consent, g.reason,
               extract(epoch FROM g.granted_at)::float8 * 1000 AS "grantedAt", extract(epoch FROM g.expires_at)::float8 * 1000 AS "expiresAt",
               (SELECT count(*)::int FROM a) AS audited,
               (SELECT ${survivorIdSql(sql`jp.id`)} FROM patients AS jp WHERE jp.id = ${g.grantPatientId}::int AND jp.replaced_by IS NOT NULL)
                 AS "survivorId"
          FROM lim LEFT JOIN g ON true`;
}

/** The statement of each shape, built once. */
type Statement = (db: Db, values: SlotValues<Raw>) => Promise<GrantStatementRow[]>;
const STATEMENTS = new Map<string, Statement>();
function statementOf(shape: GateShape & { reauth: boolean }, keys: readonly string[]): Statement {
  const name = `nhr_grant_audited${gateName(shape)}${shape.reauth ? '_reauth' : ''}_${keys.join('_')}`;
  let statement = STATEMENTS.get(name);
  if (!statement) STATEMENTS.set(name, (statement = hotStatement<Raw, GrantStatementRow>(name, (slot) => grantSql(slot, shape, keys))));
  return statement;
}

/** Stores the grant and its audit row (VIEW PATIENT of the grant's patient), after the actor's confirmation and the rate limit when given. */
export async function insertGrantAudited(db: Db, grant: NewGrant, audit: GrantAudit, checks: GrantChecks): Promise<GrantOutcome> {
  const { newValues } = audit;
  const keys = Object.keys(newValues)
    .filter((key) => newValues[key] !== undefined && key !== 'grantId')
    .sort();
  const values = slotValues(
    {
      grantUserId: grant.userId,
      grantPatientId: grant.patientId,
      grantConsent: grant.consent,
      grantReason: grant.reason,
      grantedAt: grant.grantedAt.toISOString(),
      grantExpiresAt: grant.expiresAt.toISOString(),
    },
    newValueSlots(newValues, keys),
    auditSlotValues(audit),
    ...gateSlotValues(checks),
    checks.reauth ?? {},
    checks.volumeAlert,
  );
  const [row] = await statementOf(
    { limit: Boolean(checks.limitSlots), actor: Boolean(checks.actorSlots), reauth: Boolean(checks.reauth) },
    keys,
  )(db, values);
  const gate: GateColumns = row
    ? { actorOk: row.actorOk, limitOk: row.limitOk, limitResetMs: row.limitResetMs }
    : { actorOk: false, limitOk: false, limitResetMs: null };
  if (!row || !gate.limitOk) return { gate, kind: 'closed' };
  if (!row.reauthOk) return { gate, kind: 'reauth', hasSecondFactor: row.hasSecondFactor };
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
