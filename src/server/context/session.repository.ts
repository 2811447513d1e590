// The sessions table (SPEC §3 sid, sess, expire). sid is the SHA-256 of the cookie token, never the token.
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { sessions } from '../db/schema';

export async function insertSession(db: Db, sid: string, sess: unknown, expire: Date): Promise<void> {
  await db.insert(sessions).values({ sid, sess, expire });
}

export async function deleteSession(db: Db, sid: string): Promise<void> {
  await db.execute(sql`
    WITH s AS (DELETE FROM sessions WHERE sid = ${sid} RETURNING sid)
    UPDATE user_sessions SET is_active = false WHERE session_id = ${sid} AND is_active`);
}

/** Deletes sessions past their expiry (served by sessions_expire_idx); returns how many. */
export async function deleteExpiredSessions(db: Db, now: Date): Promise<number> {
  const result = await db.execute(sql`
    WITH s AS (DELETE FROM sessions WHERE expire <= ${now.toISOString()}::timestamptz RETURNING sid),
    u AS (UPDATE user_sessions SET is_active = false WHERE is_active AND session_id IN (SELECT sid FROM s))
    SELECT count(*)::int AS n FROM s`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

/** Deletes every session of staff user `userId` (and marks their sign-ins ended); returns how many. */
export async function deleteSessionsOfStaffUser(db: DbOrTx, userId: string): Promise<number> {
  const result = await db.execute(sql`
    WITH s AS (DELETE FROM sessions WHERE sess->>'kind' = 'staff' AND sess->>'userId' = ${userId} RETURNING sid),
    u AS (UPDATE user_sessions SET is_active = false WHERE is_active AND session_id IN (SELECT sid FROM s))
    SELECT count(*)::int AS n FROM s`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}
