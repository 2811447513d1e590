// Reads who asks on every request (DESIGN.md §4, issue 11): the session, its staff user, role and permissions in
// one prepared statement. Permissions are the role's (when the role is active) plus the user's grants, minus the
// user's revocations.
import { eq, sql, type SQL } from 'drizzle-orm';
import { PERMISSIONS, type Permission } from '../../contracts/constants';
import { hotStatement, slotValues, type Db, type Slots } from '../db/client';
import { roles, users } from '../db/schema';
import type { ActorCheck, StaffActor } from './actor';

const known = new Set<string>(PERMISSIONS);

/** The permission names of user `userId` with role `roleId` (role active: `roleActive`), as one JSON array. */
export const permissionsOf = (userId: SQL, roleId: SQL, roleActive: SQL): SQL => sql`(
  SELECT coalesce(json_agg(p.name ORDER BY p.name), '[]'::json) FROM permissions p
  WHERE (p.id IN (SELECT rp.permission_id FROM role_permissions rp WHERE rp.role_id = ${roleId} AND ${roleActive})
      OR p.id IN (SELECT up.permission_id FROM user_permissions up WHERE up.user_id = ${userId} AND up.is_granted))
    AND p.id NOT IN (SELECT up.permission_id FROM user_permissions up WHERE up.user_id = ${userId} AND NOT up.is_granted)
)`;

interface StaffRow {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  roleId: number | null;
  roleName: string | null;
  roleDisplayName: string | null;
  facility: string | null;
  department: string | null;
  isActive: boolean;
  accountStatus: string;
  permissions: string[];
}

function staffActorOf(row: StaffRow | undefined): StaffActor | null {
  if (!row || !row.isActive || row.accountStatus !== 'active') return null;
  const { isActive: _a, accountStatus: _s, permissions, ...rest } = row;
  return {
    kind: 'staff',
    ...rest,
    permissions: new Set(permissions.filter((p): p is Permission => known.has(p))),
  };
}

/** The staff actor for this user, or null when the user is missing, not active, or not approved. */
export async function loadStaffActor(db: Db, userId: string): Promise<StaffActor | null> {
  const [row] = await db
    .select({
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      roleId: users.roleId,
      roleName: roles.name,
      roleDisplayName: roles.displayName,
      facility: users.facility,
      department: users.department,
      isActive: users.isActive,
      accountStatus: users.accountStatus,
      permissions: sql<string[]>`${permissionsOf(sql`${users.id}`, sql`${users.roleId}`, sql`${roles.isActive}`)}`,
    })
    .from(users)
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.id, userId));
  return staffActorOf(row);
}

/** Idle and absolute lifetimes of a kind of session, in milliseconds. */
export interface SessionLifetimes {
  staff: { idleMs: number; absoluteMs: number };
  patient: { idleMs: number; absoluteMs: number };
}

export interface SessionActorRow {
  sess: unknown;
  /** The expiry after this request (slid when the statement moved it). */
  expire: Date;
  /** The session's staff user with role and permissions, or null (a patient session, or no such user). */
  staff: StaffActor | null;
  /** What the actor was built from, digested (ACTOR_FINGERPRINT). */
  fingerprint: string;
}

const CREATED_AT = String.raw`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$`;

/** The per-request values of the session CTEs: the sid, the server's clock, and the lifetimes in milliseconds. */
export interface SessionSlots {
  sessionSid: string;
  sessionNow: string;
  staffIdleMs: number;
  staffAbsoluteMs: number;
  patientIdleMs: number;
  patientAbsoluteMs: number;
  touchMs: number;
}

export const sessionSlotValues = (sid: string, now: Date, life: SessionLifetimes, touchMs: number): SessionSlots => ({
  sessionSid: sid,
  sessionNow: now.toISOString(),
  staffIdleMs: life.staff.idleMs,
  staffAbsoluteMs: life.staff.absoluteMs,
  patientIdleMs: life.patient.idleMs,
  patientAbsoluteMs: life.patient.absoluteMs,
  touchMs,
});

/**
 * The CTEs that find the live session `sid` as of `now` (`actor_s`, with its slid idle expiry), slide that expiry
 * when it moves by at least `touchMs` (`actor_slide`), and touch the staff sign-in's last_activity when it is at
 * least `touchMs` old (`actor_touch`): a busy client costs one write a minute, not one per request. The two
 * updates are read by nothing: a data-modifying WITH runs whether or not the query reads it.
 */
function sessionCtes(slot: Slots<SessionSlots>): SQL {
  const at = sql`${slot.sessionNow}::timestamptz`;
  const ms = (n: SQL): SQL => sql`(${n}::int * interval '1 millisecond')`;
  return sql`actor_s AS (
          SELECT sid, sess, expire,
                 CASE WHEN sess->>'kind' IN ('staff', 'patient') AND sess->>'createdAt' ~ ${CREATED_AT} THEN least(
                   ${at} + CASE sess->>'kind' WHEN 'staff' THEN ${ms(slot.staffIdleMs)} ELSE ${ms(slot.patientIdleMs)} END,
                   (sess->>'createdAt')::timestamptz
                     + CASE sess->>'kind' WHEN 'staff' THEN ${ms(slot.staffAbsoluteMs)} ELSE ${ms(slot.patientAbsoluteMs)} END)
                 END AS slid
            FROM sessions WHERE sid = ${slot.sessionSid} AND expire > ${at}),
        actor_slide AS (UPDATE sessions AS x SET expire = s.slid FROM actor_s AS s
               WHERE x.sid = s.sid AND s.slid - s.expire >= ${ms(slot.touchMs)} RETURNING x.sid),
        actor_touch AS (UPDATE user_sessions SET last_activity = ${at}
               WHERE session_id = (SELECT sid FROM actor_s) AND is_active AND last_activity <= ${at} - ${ms(slot.touchMs)} RETURNING id)`;
}

/** The session (`s`), its staff user (`u`), role (`r`) and permissions (`pm.permissions`). */
const ACTOR_FROM = sql`FROM actor_s AS s
          LEFT JOIN users AS u ON s.sess->>'kind' = 'staff' AND u.id = s.sess->>'userId'
          LEFT JOIN roles AS r ON r.id = u.role_id
          LEFT JOIN LATERAL (SELECT CASE WHEN u.id IS NULL THEN '[]'::json ELSE ${permissionsOf(sql`u.id`, sql`u.role_id`, sql`r.is_active`)} END
                               AS permissions) AS pm ON true`;

/**
 * Everything the actor is built from, as one digest: the session's contents and the user, role and permissions.
 * The same row gives the same digest; any change to what the actor holds gives another (decision 028).
 */
const ACTOR_FINGERPRINT = sql`md5(ROW(s.sess, u.id, u.email, u.first_name, u.last_name, u.role_id, r.name, r.display_name, u.facility,
          u.department, u.is_active, u.account_status, pm.permissions::text)::text)`;

/**
 * The live session with this sid and its staff user, role and permissions, in one prepared statement that also
 * slides the idle expiry and touches last_activity (sessionCtes). `fingerprint` digests what the actor is built
 * from, so a later statement can check in itself that the actor is still the same (actorCheckSlotted).
 */
type SessionActorResult = StaffRow & {
  sess: unknown;
  expire: number;
  slid: number | null;
  touched: boolean;
  staff: boolean;
  fingerprint: string;
};

const sessionActorStatement = hotStatement<SessionSlots, SessionActorResult>(
  'nhr_session_actor',
  (slot) => sql`WITH ${sessionCtes(slot)}
        SELECT s.sess, extract(epoch FROM s.expire)::float8 * 1000 AS expire, extract(epoch FROM s.slid)::float8 * 1000 AS slid,
               EXISTS (SELECT 1 FROM actor_slide) AS touched,
               u.id IS NOT NULL AS staff, u.id AS "userId", u.email, u.first_name AS "firstName", u.last_name AS "lastName",
               u.role_id AS "roleId", r.name AS "roleName", r.display_name AS "roleDisplayName", u.facility, u.department,
               u.is_active AS "isActive", u.account_status AS "accountStatus", pm.permissions, ${ACTOR_FINGERPRINT} AS fingerprint
          ${ACTOR_FROM}`,
);

export async function loadSessionActor(
  db: Db,
  sid: string,
  now: Date,
  life: SessionLifetimes,
  touchMs: number,
): Promise<SessionActorRow | null> {
  const [row] = await sessionActorStatement(db, slotValues(sessionSlotValues(sid, now, life, touchMs)));
  if (!row) return null;
  return {
    sess: row.sess,
    expire: new Date(Math.round(row.touched && row.slid !== null ? row.slid : row.expire)),
    staff: row.staff ? staffActorOf(row) : null,
    fingerprint: row.fingerprint,
  };
}

/**
 * CTEs to put first in a request's one statement (decision 028): the session found, slid and touched as
 * loadSessionActor does, and `actor_ok` (one row, `ok`): the session is live and its actor's fingerprint is still
 * `check.fingerprint`. Every other part of the statement must run only when `(SELECT ok FROM actor_ok)`; when it is
 * false, nothing was read or written but the session's slide, and the caller loads the actor anew.
 */
/** The per-request values of actorCheckSlotted: the session's, and the fingerprint the cached actor was built from. */
export interface ActorSlots extends SessionSlots {
  actorFingerprint: string;
}

// One property added to the session's values, not a spread into a new literal (decision 063: spreads built hidden classes per request).
export const actorSlotValues = (check: ActorCheck, life: SessionLifetimes, touchMs: number): ActorSlots =>
  Object.assign(sessionSlotValues(check.sid, check.now, life, touchMs), { actorFingerprint: check.fingerprint });

/**
 * The CTEs that confirm a cached actor inside a route's hot statement (db/client hotStatement), over slots: they end
 * in `actor_ok`.
 */
export function actorCheckSlotted(slot: Slots<ActorSlots>): SQL {
  return sql`${sessionCtes(slot)},
        actor_ok AS MATERIALIZED (SELECT coalesce((SELECT ${ACTOR_FINGERPRINT} ${ACTOR_FROM}), '') = ${slot.actorFingerprint} AS ok)`;
}
