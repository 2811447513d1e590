// The privacy review's reads of the audit data (docs/decisions/018-privacy-review.md): break-the-glass accesses with
// the figures their flags are computed from, what was done during each grant, and the verdicts, which are audit
// rows themselves (resource_type ACCESS_REVIEW, resource_id = the reviewed row's id), written by the audit writer.
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { personIdsSql } from '../../db/joined-patients';
import type { StoredAuditValues } from '../audit/audit-values';
import { auditValueSql } from '../audit/audit-values.repository';

const rowsOf = async <T>(db: DbOrTx, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
const iso = (column: SQL): SQL => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface QueueCriteria {
  status: 'unreviewed' | 'reviewed' | 'all';
  facility?: string | undefined;
  userId?: string | undefined;
  /** One person (with every record joined with theirs, decision 048). */
  patientId?: number | undefined;
  /** Only this break-the-glass row (the detail view). */
  id?: number | undefined;
  limit: number;
  offset: number;
}

/** One break-the-glass row with everything its flags need. */
export interface BreakGlassRow {
  id: number;
  at: string;
  userId: string;
  userName: string;
  facility: string | null;
  reason: string | null;
  patientId: number;
  grantExpiresAt: string | null;
  roleName: string | null;
  roleDisplayName: string | null;
  userFacility: string | null;
  patientName: string | null;
  patientAddress: string | null;
  restricted: boolean;
  sameSurname: boolean;
  sameAddress: boolean;
  grantsInHour: number;
  sessionIp: string | null;
  newIp: boolean;
  sessionSearches: number;
  bulkPatients: number;
  reviewVerdict: string | null;
  reviewNote: string | null;
  reviewerId: string | null;
  reviewerName: string | null;
  reviewedAt: string | null;
}

const isBreakGlass = sql`a.action = 'VIEW' AND a.compliance_flags ->> 'type' = 'BREAK_GLASS'`;
const reviewOf = (idColumn: SQL): SQL =>
  sql`SELECT 1 FROM audit_logs r WHERE r.resource_type = 'ACCESS_REVIEW' AND r.resource_id = ${idColumn}::text`;

function where(c: QueueCriteria): SQL {
  const parts: SQL[] = [isBreakGlass];
  if (c.id !== undefined) parts.push(sql`a.id = ${c.id}`);
  if (c.facility !== undefined) parts.push(sql`a.facility = ${c.facility}`);
  if (c.userId !== undefined) parts.push(sql`a.user_id = ${c.userId}`);
  // One person's accesses: those of every record joined with theirs too (decision 048).
  if (c.patientId !== undefined) parts.push(sql`a.patient_id = ANY(${personIdsSql(sql`${c.patientId}::int`)})`);
  if (c.status === 'unreviewed') parts.push(sql`NOT EXISTS (${reviewOf(sql`a.id`)})`);
  if (c.status === 'reviewed') parts.push(sql`EXISTS (${reviewOf(sql`a.id`)})`);
  return sql.join(parts, sql` AND `);
}

/** How many break-the-glass rows match (the queue's total). */
export async function countBreakGlass(db: DbOrTx, c: QueueCriteria): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM audit_logs a WHERE ${where(c)}`);
  return row?.n ?? 0;
}

/**
 * A page of break-the-glass rows, newest first, each with the figures of its flags: grants by the user in the
 * hour up to it, whether the patient shares the user's surname or address, the sign-in address of its session
 * and whether the user had signed in from there before, the session's searches, and the distinct patients the
 * user's searches returned within `bulkMinutes` of it; and its latest verdict.
 */
export async function selectBreakGlass(db: DbOrTx, c: QueueCriteria, bulkMinutes: number): Promise<BreakGlassRow[]> {
  return rowsOf<BreakGlassRow>(
    db,
    sql`
    WITH g AS (
      SELECT a.id, a.timestamp, a.user_id, a.user_name, a.patient_id, a.facility, a.session_id,
             a.compliance_flags ->> 'reason' AS reason, a.new_values ->> 'expiresAt' AS expires_at,
             a.new_values -> 'role' AS role_then
      FROM audit_logs a
      WHERE ${where(c)}
      ORDER BY a.timestamp DESC, a.id DESC
      LIMIT ${c.limit} OFFSET ${c.offset}
    )
    SELECT g.id::int AS "id", ${iso(sql`g.timestamp`)} AS "at", g.user_id AS "userId", g.user_name AS "userName",
      g.facility AS "facility", g.reason AS "reason", g.patient_id AS "patientId", g.expires_at AS "grantExpiresAt",
      coalesce(g.role_then ->> 'name', ro.name) AS "roleName",
      coalesce(g.role_then ->> 'displayName', ro.display_name) AS "roleDisplayName", u.facility AS "userFacility",
      CASE WHEN p.id IS NULL THEN NULL ELSE p.first_name || ' ' || p.last_name END AS "patientName",
      p.address AS "patientAddress", coalesce(p.restricted, false) AS "restricted",
      coalesce(p.last_name_norm <> '' AND p.last_name_norm = nhr_norm(u.last_name), false) AS "sameSurname",
      coalesce(nhr_norm(u.address) <> '' AND nhr_norm(u.address) = nhr_norm(p.address), false) AS "sameAddress",
      (SELECT count(*)::int FROM audit_logs c
        WHERE c.user_id = g.user_id AND c.action = 'VIEW' AND c.compliance_flags ->> 'type' IN ('CONSENT', 'BREAK_GLASS')
          AND c.timestamp > g.timestamp - interval '1 hour' AND c.timestamp <= g.timestamp) AS "grantsInHour",
      s.ip_address AS "sessionIp",
      coalesce(s.login_time IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM user_sessions s2
        WHERE s2.user_id = g.user_id AND s2.ip_address = s.ip_address AND s2.login_time < s.login_time), false) AS "newIp",
      (SELECT count(*)::int FROM audit_logs c
        WHERE c.user_id = g.user_id AND c.action = 'SEARCH' AND c.session_id = g.session_id
          AND c.timestamp >= s.login_time) AS "sessionSearches",
      (SELECT count(DISTINCT pid)::int FROM audit_logs c
        CROSS JOIN LATERAL jsonb_array_elements_text(
          CASE WHEN jsonb_typeof(c.new_values -> 'patientIds') = 'array' THEN c.new_values -> 'patientIds' ELSE '[]'::jsonb END) AS pid
        WHERE c.user_id = g.user_id AND c.action = 'SEARCH'
          AND c.timestamp BETWEEN g.timestamp - make_interval(mins => ${bulkMinutes}) AND g.timestamp + make_interval(mins => ${bulkMinutes})
      ) AS "bulkPatients",
      rv.new_values ->> 'verdict' AS "reviewVerdict", rv.new_values ->> 'note' AS "reviewNote",
      rv.user_id AS "reviewerId", rv.user_name AS "reviewerName",
      CASE WHEN rv.timestamp IS NULL THEN NULL ELSE ${iso(sql`rv.timestamp`)} END AS "reviewedAt"
    FROM g
    LEFT JOIN users u ON u.id = g.user_id
    LEFT JOIN roles ro ON ro.id = u.role_id
    LEFT JOIN patients p ON p.id = g.patient_id
    LEFT JOIN LATERAL (
      SELECT us.ip_address, us.login_time FROM user_sessions us WHERE us.session_id = g.session_id ORDER BY us.login_time DESC LIMIT 1
    ) s ON true
    LEFT JOIN LATERAL (
      SELECT r.user_id, r.user_name, r.new_values, r.timestamp FROM audit_logs r
      WHERE r.resource_type = 'ACCESS_REVIEW' AND r.resource_id = g.id::text
      ORDER BY r.timestamp DESC, r.id DESC LIMIT 1
    ) rv ON true
    ORDER BY g.timestamp DESC, g.id DESC`,
  );
}

/** An audit row of the grant's activity, its values as stored (the service presents them: modules/audit/audit-values.ts). */
export interface ActivityRow extends StoredAuditValues {
  id: number;
  at: string;
  action: string;
  resourceId: string | null;
}

/** The user's audit rows about the patient from the grant until it expired (or now), oldest first, at most `limit`. */
export async function selectGrantActivity(
  db: DbOrTx,
  q: { userId: string; patientId: number; from: string; until: string; excludeId: number; limit: number },
): Promise<ActivityRow[]> {
  // The shared select list of audit values (payload and sealed flag included), not a call of the audit module.
  const values = auditValueSql('a');
  return rowsOf<ActivityRow>(
    db,
    sql`SELECT a.id::int AS "id", ${iso(sql`a.timestamp`)} AS "at", a.action AS "action", a.resource_id AS "resourceId",
        ${values.columns}
      FROM audit_logs a ${values.join}
      WHERE a.user_id = ${q.userId} AND a.patient_id = ANY(${personIdsSql(sql`${q.patientId}::int`)}) AND a.id <> ${q.excludeId}
        AND a.timestamp >= ${q.from}::timestamptz AND a.timestamp <= ${q.until}::timestamptz
      ORDER BY a.timestamp, a.id
      LIMIT ${q.limit}`,
  );
}

export interface VerdictRow {
  verdict: string;
  note: string;
  reviewerId: string;
  reviewerName: string;
  at: string;
}

/** Every verdict about one break-the-glass row, newest first. */
export async function selectVerdicts(db: DbOrTx, breakGlassId: number): Promise<VerdictRow[]> {
  return rowsOf<VerdictRow>(
    db,
    sql`SELECT r.new_values ->> 'verdict' AS "verdict", coalesce(r.new_values ->> 'note', '') AS "note",
        r.user_id AS "reviewerId", r.user_name AS "reviewerName", ${iso(sql`r.timestamp`)} AS "at"
      FROM audit_logs r
      WHERE r.resource_type = 'ACCESS_REVIEW' AND r.resource_id = ${String(breakGlassId)}
      ORDER BY r.timestamp DESC, r.id DESC`,
  );
}

/** The reviewer's counts: unreviewed accesses, and accesses whose latest verdict is follow-up or not justified. */
export async function reviewCounts(db: DbOrTx): Promise<{ unreviewed: number; followUp: number; notJustified: number }> {
  const [row] = await rowsOf<{ unreviewed: number; followUp: number; notJustified: number }>(
    db,
    sql`SELECT (count(*) FILTER (WHERE rv.verdict IS NULL))::int AS "unreviewed",
        (count(*) FILTER (WHERE rv.verdict = 'FOLLOW_UP'))::int AS "followUp",
        (count(*) FILTER (WHERE rv.verdict = 'NOT_JUSTIFIED'))::int AS "notJustified"
      FROM audit_logs a
      LEFT JOIN LATERAL (
        SELECT r.new_values ->> 'verdict' AS verdict FROM audit_logs r
        WHERE r.resource_type = 'ACCESS_REVIEW' AND r.resource_id = a.id::text
        ORDER BY r.timestamp DESC, r.id DESC LIMIT 1
      ) rv ON true
      WHERE ${isBreakGlass}`,
  );
  return row ?? { unreviewed: 0, followUp: 0, notJustified: 0 };
}

export interface BreakGlassAccessOwner {
  userId: string;
  patientId: number;
  /** When the access was made by a system client: who created that client (issue 21 item 5). */
  clientCreatedBy: string | null;
}

/** The break-the-glass access with this audit row id (its user, patient and client creator), or null for any other row. */
export async function selectBreakGlassAccess(tx: DbOrTx, breakGlassId: number): Promise<BreakGlassAccessOwner | null> {
  const [access] = await rowsOf<BreakGlassAccessOwner>(
    tx,
    sql`SELECT a.user_id AS "userId", a.patient_id AS "patientId", c.created_by AS "clientCreatedBy"
        FROM audit_logs a LEFT JOIN api_clients c ON c.user_id = a.user_id
        WHERE a.id = ${breakGlassId} AND ${isBreakGlass}`,
  );
  return access ?? null;
}

/** Sets a patient's VIP/restricted marker; answers the value it had, or null for an unknown patient. */
export async function updateRestricted(tx: DbOrTx, patientId: number, restricted: boolean): Promise<boolean | null> {
  const [before] = await rowsOf<{ restricted: boolean }>(tx, sql`SELECT restricted FROM patients WHERE id = ${patientId} FOR UPDATE`);
  if (!before) return null;
  await tx.execute(sql`UPDATE patients SET restricted = ${restricted} WHERE id = ${patientId}`);
  return before.restricted;
}
