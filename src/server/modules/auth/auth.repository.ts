// Sign-in bookkeeping: security events (the record of every attempt, and the throttle's source), user_sessions,
// and the registration roles.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { roles, securityEvents, userSessions, users } from '../../db/schema';

export type SecurityEventRow = Omit<typeof securityEvents.$inferInsert, 'id'>;

export async function insertSecurityEvent(db: DbOrTx, event: SecurityEventRow): Promise<void> {
  await db.insert(securityEvents).values(event);
}

export interface ThrottleWindow {
  subject: string;
  ip: string;
  now: Date;
  /** Length of the counting windows and of the lockout, in seconds. */
  windowSeconds: number;
  /** Failures within one window that lock the subject. */
  failureLimit: number;
  /** Attempts from one IP within a window that are refused. */
  ipLimit: number;
}

export interface ThrottleState {
  /** Sign-in attempts from this IP in the window (counted up to ipLimit). */
  ipAttempts: number;
  /** When the subject's latest lockout started (its failureLimit-th failure within a window), if any. */
  lockedSince: Date | null;
}

/**
 * One query over the partial indexes on security_events (subject, timestamp) and (ip_address, timestamp):
 * rows with a subject are sign-in attempts. Failures before the subject's last success do not count.
 */
export async function readThrottleState(db: Db, w: ThrottleWindow): Promise<ThrottleState> {
  const now = w.now.getTime();
  const since = new Date(now - w.windowSeconds * 1000).toISOString();
  const since2 = new Date(now - 2 * w.windowSeconds * 1000).toISOString();
  const result = await db.execute(sql`
    SELECT
      (SELECT count(*)::int FROM (
         SELECT 1 FROM security_events
         WHERE subject IS NOT NULL AND ip_address = ${w.ip} AND timestamp > ${since}::timestamptz
         LIMIT ${w.ipLimit}::int) a) AS ip_attempts,
      (SELECT max(ts) FROM (
         SELECT timestamp AS ts, lag(timestamp, ${w.failureLimit - 1}::int) OVER (ORDER BY timestamp) AS first_ts
         FROM security_events
         WHERE subject = ${w.subject} AND event_type = 'LOGIN_FAILURE' AND timestamp > ${since2}::timestamptz
           AND timestamp > coalesce((
             SELECT max(timestamp) FROM security_events
             WHERE subject = ${w.subject} AND event_type = 'LOGIN_SUCCESS' AND timestamp > ${since2}::timestamptz
           ), '-infinity')
       ) f
       WHERE first_ts IS NOT NULL AND ts - first_ts <= make_interval(secs => ${w.windowSeconds}::int)) AS locked_since`);
  const row = (result as unknown as { rows: { ip_attempts: number; locked_since: Date | string | null }[] }).rows[0];
  return {
    ipAttempts: row?.ip_attempts ?? 0,
    lockedSince: row?.locked_since ? new Date(row.locked_since) : null,
  };
}

/** A successful staff sign-in: last_login_at, a user_sessions row and the LOGIN_SUCCESS event, together. */
export async function recordLoginSuccess(
  db: Db,
  login: { userId: string; sid: string; now: Date; ip: string; userAgent: string | null },
  event: SecurityEventRow,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ lastLoginAt: login.now }).where(eq(users.id, login.userId));
    await tx.insert(userSessions).values({
      userId: login.userId,
      sessionId: login.sid,
      loginTime: login.now,
      lastActivity: login.now,
      ipAddress: login.ip,
      userAgent: login.userAgent,
    });
    await tx.insert(securityEvents).values(event);
  });
}

export interface RoleRow {
  id: number;
  name: string;
  displayName: string;
  description: string | null;
}

export function listActiveRoles(db: Db, ids: readonly number[]): Promise<RoleRow[]> {
  return db
    .select({ id: roles.id, name: roles.name, displayName: roles.displayName, description: roles.description })
    .from(roles)
    .where(and(inArray(roles.id, [...ids]), eq(roles.isActive, true)))
    .orderBy(asc(roles.id));
}
