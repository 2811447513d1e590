// Who opened a patient's record (DESIGN.md §6): the audit rows written when a clinician confirmed access (action
// VIEW with complianceFlags {type: 'CONSENT'} or {type: 'BREAK_GLASS', reason}), searches that recorded this
// patient id, and portal activation codes issued for the patient (UPDATE flagged PORTAL_ACTIVATION, decision 016). Always scoped by the one patient id passed in; served by audit_logs (patient_id, timestamp).
import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../../context/actor';
import type { PatientScope } from '../access/patient-scope';
import type { DbOrTx } from '../../db/client';
import { personIdsSql } from '../../db/joined-patients';
import { auditLogs, roles, users } from '../../db/schema';

export interface AccessRow {
  id: number;
  action: string;
  flagType: string | null;
  reason: string | null;
  timestamp: Date;
  userName: string;
  /** The account's id (stable whatever the name): the access history shows a short staff reference of it. */
  userId: string;
  facility: string | null;
  userFacility: string | null;
  roleName: string | null;
  roleDisplayName: string | null;
  /** The latest privacy-review verdict of a break-the-glass access (docs/decisions/018-privacy-review.md). */
  reviewVerdict: string | null;
  /** ISO 8601 UTC. */
  reviewedAt: string | null;
  /** The role stored on the audit row when it was written (null on rows written before it was stored). */
  roleAtTheTime: { name: string; displayName: string } | null;
}

const flagType = sql<string | null>`${auditLogs.complianceFlags} ->> 'type'`;
const isBreakGlass = sql`${auditLogs.action} = 'VIEW' AND ${flagType} = 'BREAK_GLASS'`;
// The latest verdict about an access row: verdicts are ACCESS_REVIEW audit rows whose resource_id is its id.
const latestReview = (column: string): SQL =>
  sql`(SELECT ${sql.raw(column)} FROM audit_logs r WHERE r.resource_type = 'ACCESS_REVIEW' AND r.resource_id = ${sql.raw('"audit_logs"."id"')}::text
    ORDER BY r.timestamp DESC, r.id DESC LIMIT 1)`;

/** The patient's rows: those of every record joined into theirs too (audit rows keep their old id, decision 048). */
const ofPerson = (patientId: number): SQL => sql`${auditLogs.patientId} = ANY(${personIdsSql(sql`${patientId}::int`)})`;

function accessesOf(patientId: number): SQL | undefined {
  return and(
    ofPerson(patientId),
    or(
      and(eq(auditLogs.action, 'VIEW'), sql`${flagType} IN ('CONSENT', 'BREAK_GLASS')`),
      eq(auditLogs.action, 'SEARCH'),
      // Codes issued, activations (named after the code's issuer) and resets a second staff member confirmed (decision 031).
      and(eq(auditLogs.action, 'UPDATE'), sql`${flagType} IN ('PORTAL_ACTIVATION', 'PORTAL_ACTIVATED', 'PORTAL_RESET_CONFIRMED')`),
    ),
  );
}

async function selectAccesses(tx: DbOrTx, patientId: number, limit: number, offset: number): Promise<AccessRow[]> {
  return tx
    .select({
      id: auditLogs.id,
      action: auditLogs.action,
      flagType,
      reason: sql<string | null>`${auditLogs.complianceFlags} ->> 'reason'`,
      timestamp: auditLogs.timestamp,
      // An activation is written by the patient's session; the history names the staff member who issued its code.
      userName: sql<string>`CASE WHEN ${flagType} = 'PORTAL_ACTIVATED' THEN coalesce(${auditLogs.newValues} -> 'issuedBy' ->> 'name', '') ELSE ${auditLogs.userName} END`,
      userId: sql<string>`CASE WHEN ${flagType} = 'PORTAL_ACTIVATED' THEN coalesce(${auditLogs.newValues} -> 'issuedBy' ->> 'userId', '') ELSE ${auditLogs.userId} END`,
      facility: sql<
        string | null
      >`CASE WHEN ${flagType} = 'PORTAL_ACTIVATED' THEN ${auditLogs.newValues} -> 'issuedBy' ->> 'facility' ELSE ${auditLogs.facility} END`,
      userFacility: users.facility,
      roleName: roles.name,
      roleDisplayName: roles.displayName,
      reviewVerdict: sql<string | null>`CASE WHEN ${isBreakGlass} THEN ${latestReview("r.new_values ->> 'verdict'")} END`,
      reviewedAt: sql<string | null>`CASE WHEN ${isBreakGlass} THEN ${latestReview(
        `to_char(r.timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      )} END`,
      roleAtTheTime: sql<{ name: string; displayName: string } | null>`${auditLogs.newValues} -> 'role'`,
    })
    .from(auditLogs)
    .leftJoin(users, eq(users.id, auditLogs.userId))
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(accessesOf(patientId))
    .orderBy(desc(auditLogs.timestamp), desc(auditLogs.id))
    .limit(limit)
    .offset(offset);
}

async function countAccesses(tx: DbOrTx, patientId: number): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(auditLogs).where(accessesOf(patientId));
  return Number(row?.n ?? 0);
}

/** Break-the-glass accesses to this patient's record that no reviewer has given a verdict on yet. */
export async function countUnreviewedEmergencyAccesses(db: DbOrTx, patientId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(auditLogs)
    .where(
      and(
        ofPerson(patientId),
        isBreakGlass,
        sql`NOT EXISTS (SELECT 1 FROM audit_logs r WHERE r.resource_type = 'ACCESS_REVIEW' AND r.resource_id = ${sql.raw('"audit_logs"."id"')}::text)`,
      ),
    );
  return Number(row?.n ?? 0);
}

/** One page of the scope's patient's access history, newest first, and the total. */
export async function selectAccessLogPage(
  scope: PatientScope<Actor>,
  page: { limit: number; offset: number },
): Promise<{ rows: AccessRow[]; total: number }> {
  const rows = await selectAccesses(scope.tx, scope.patientId, page.limit, page.offset);
  const total = await countAccesses(scope.tx, scope.patientId);
  return { rows, total };
}
