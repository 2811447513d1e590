// Failed patient sign-ins across NC numbers (issue 21 item 3, decision 032): the counts behind the per-address and
// per-minute limits, and the spray alert (many numbers, few guesses each) for the privacy review. They read the
// LOGIN_FAILURE rows the sign-in throttle writes (decision 004; metadata kind 'patient').
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

const rowsOf = async <T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

const PATIENT_FAILURE = sql`event_type = 'LOGIN_FAILURE' AND subject IS NOT NULL AND metadata->>'kind' = 'patient'`;

/**
 * Failed patient sign-ins from `ip` since `ipSince` and from anywhere since `minuteSince`, each counted up to its cap
 * (the indexes on ip/time and type/time; LIMIT bounds the work under a flood).
 */
export async function countPatientFailures(
  db: Db,
  w: { ip: string; ipSince: Date; ipCap: number; minuteSince: Date; minuteCap: number },
): Promise<{ fromIp: number; lastMinute: number }> {
  const [row] = await rowsOf<{ fromIp: number; lastMinute: number }>(
    db,
    sql`SELECT
      (SELECT count(*)::int FROM (SELECT 1 FROM security_events
         WHERE ip_address = ${w.ip} AND timestamp > ${w.ipSince.toISOString()}::timestamptz AND ${PATIENT_FAILURE}
         LIMIT ${w.ipCap}::int) a) AS "fromIp",
      (SELECT count(*)::int FROM (SELECT 1 FROM security_events
         WHERE timestamp > ${w.minuteSince.toISOString()}::timestamptz AND ${PATIENT_FAILURE}
         LIMIT ${w.minuteCap}::int) b) AS "lastMinute"`,
  );
  return row ?? { fromIp: 0, lastMinute: 0 };
}

export interface SprayCheck {
  now: Date;
  minutes: number;
  /** More numbers than this, each with fewer failures than `lockoutFailures`, raise the alert. */
  threshold: number;
  lockoutFailures: number;
  ip: string;
  userAgent: string | null;
  description: string;
}

/**
 * One statement: unless a SIGN_IN_SPRAY_ALERT was raised within the window, counts the NC numbers that failed patient
 * sign-ins named within it with fewer failures each than the lockout, and over the threshold writes the alert (no
 * staff user; the last address and the figures in metadata). True when it wrote one.
 */
export async function raiseSprayAlert(db: Db, a: SprayCheck): Promise<boolean> {
  const since = new Date(a.now.getTime() - a.minutes * 60_000).toISOString();
  const [row] = await rowsOf<{ raised: boolean }>(
    db,
    sql`WITH seen AS (SELECT EXISTS (
          SELECT 1 FROM security_events WHERE event_type = 'SIGN_IN_SPRAY_ALERT' AND timestamp > ${since}::timestamptz) AS alerted),
      f AS (
        SELECT subject, count(*) AS n FROM security_events
        WHERE timestamp > ${since}::timestamptz AND ${PATIENT_FAILURE} AND NOT (SELECT alerted FROM seen)
        GROUP BY subject),
      c AS (
        SELECT count(*)::int AS accounts, coalesce(sum(n), 0)::int AS guesses,
          (SELECT count(DISTINCT ip_address)::int FROM security_events
             WHERE timestamp > ${since}::timestamptz AND ${PATIENT_FAILURE} AND NOT (SELECT alerted FROM seen)) AS addresses
        FROM f WHERE n < ${a.lockoutFailures}::int),
      ins AS (
        INSERT INTO security_events (event_type, severity, description, ip_address, user_agent, metadata, timestamp)
        SELECT 'SIGN_IN_SPRAY_ALERT', 'HIGH', ${a.description}, ${a.ip}, ${a.userAgent},
          jsonb_build_object('count', c.accounts, 'guesses', c.guesses, 'addresses', c.addresses,
            'threshold', ${a.threshold}::int, 'minutes', ${a.minutes}::int, 'kind', 'patient'),
          ${a.now.toISOString()}::timestamptz
        FROM c WHERE c.accounts > ${a.threshold}::int AND NOT (SELECT alerted FROM seen)
        RETURNING id)
      SELECT EXISTS (SELECT 1 FROM ins) AS raised`,
  );
  return row?.raised ?? false;
}
