// Volume alerts (docs/decisions/011-rate-limits-and-volume-alerts.md): security events written when a user's
// searches return many distinct patients, or a user confirms many record accesses, and read for the privacy review.
// subject stays NULL, so the sign-in throttle's indexes and counts never see them.
import { sql, type SQL } from 'drizzle-orm';
import { bindSlots, preparedRows, type DbOrTx, type Slots } from '../../db/client';

const rowsOf = async <T>(db: DbOrTx, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

export interface BulkSearchCheck {
  userId: string;
  userName: string;
  facility: string | null;
  ip: string;
  userAgent: string | null;
  threshold: number;
  minutes: number;
  description: string;
  /** More distinct patients than this within 24 hours: BULK_SEARCH_DAILY_ALERT (decision 036). */
  dayThreshold: number;
  dayDescription: string;
}

/**
 * The bulk-search check (nhr_bulk_search_check, migrations 0028 and 0037) as an SQL boolean expression (true: it wrote
 * an alert). `ids`: an int[] expression of the patients a search found. It records them in search_volume; an open
 * alert (of the window, or of the last 24 hours) grows by the patients new to it, else the user's patients of the
 * window (of the day) are counted up to the threshold and an alert raised over it (decision 036). Called by the
 * search's own statement (issue 11, decisions 014 and 028) or, after the fuzzy search, by checkSearchVolume.
 */
export function bulkSearchCheckSql(a: BulkSearchCheck, ids: SQL): SQL {
  return bulkSearchCheckSlotted(bindSlots(volumeSlotValues(a)), ids);
}

/** The per-request values of the bulk-search check, for a hot statement built with bulkSearchCheckSlotted. */
export interface VolumeSlots {
  volumeUserId: string;
  volumeMinutes: number;
  volumeThreshold: number;
  volumeDayThreshold: number;
  volumeUserName: string;
  volumeFacility: string | null;
  volumeIp: string;
  volumeUserAgent: string | null;
  volumeDescription: string;
  volumeDayDescription: string;
}

export const volumeSlotValues = (a: BulkSearchCheck): VolumeSlots => ({
  volumeUserId: a.userId,
  volumeMinutes: a.minutes,
  volumeThreshold: a.threshold,
  volumeDayThreshold: a.dayThreshold,
  volumeUserName: a.userName,
  volumeFacility: a.facility,
  volumeIp: a.ip,
  volumeUserAgent: a.userAgent,
  volumeDescription: a.description,
  volumeDayDescription: a.dayDescription,
});

/** bulkSearchCheckSql over slots: the same call, for a statement built once (db/client hotStatement). */
export function bulkSearchCheckSlotted(slot: Slots<VolumeSlots>, ids: SQL): SQL {
  return sql`nhr_bulk_search_check(${slot.volumeUserId}::text, ${ids}::int[], ${slot.volumeMinutes}::int, ${slot.volumeThreshold}::int,
    ${slot.volumeDayThreshold}::int, ${slot.volumeUserName}::text, ${slot.volumeFacility}::text, ${slot.volumeIp}::text,
    ${slot.volumeUserAgent}::text, ${slot.volumeDescription}::text, ${slot.volumeDayDescription}::text)`;
}

/** After a committed search that found `ids`: the bulk-search check in a statement of its own. */
export async function checkSearchVolume(db: DbOrTx, a: BulkSearchCheck, ids: readonly number[]): Promise<boolean> {
  const [row] = await preparedRows<{ raised: boolean }>(
    db,
    'nhr_bulk_search_check',
    sql`SELECT ${bulkSearchCheckSql(a, sql`${`{${ids.join(',')}}`}`)} AS raised`,
  );
  return row?.raised ?? false;
}

/** The per-request values of the grant-volume alert a record-access grant's own statement raises (grantVolumeAlertSlotted). */
export interface GrantVolumeSlots {
  /** More grants than this in the hour raise GRANT_VOLUME_ALERT (ALERT_GRANTS_PER_HOUR). */
  grantAlertThreshold: number;
  /** The hour's start: an hour before the grant's `now` (the server's clock, which stamps granted_at). */
  grantAlertSince: string;
  grantAlertDescription: string;
}

/** Who the grant-volume alert names: SQL expressions of the grant's statement (its audit row's values). */
export interface AlertWho {
  userId: SQL;
  userName: SQL;
  facility: SQL;
  ip: SQL;
  userAgent: SQL;
}

/**
 * GRANT_VOLUME_ALERT raised by the grant's own statement (issue 29: no second round trip after the grant): the body of
 * a data-modifying CTE that writes the alert when `stored` (the CTE that inserted the grant) has its row, the user has
 * no such alert within the hour, and the user's grants of the hour, this one included, are more than the threshold. A
 * statement's CTEs share one snapshot, so the count is of the grants before this one, plus one. Like raiseAlertOver, a
 * user already alerted within the window is not counted again.
 */
export function grantVolumeAlertSlotted(slot: Slots<GrantVolumeSlots>, who: AlertWho, stored: SQL): SQL {
  return sql`INSERT INTO security_events (user_id, event_type, severity, description, ip_address, user_agent, metadata, facility)
    SELECT ${who.userId}, 'GRANT_VOLUME_ALERT', 'HIGH', ${slot.grantAlertDescription}::text, ${who.ip}, ${who.userAgent},
           jsonb_build_object('count', c.n, 'threshold', ${slot.grantAlertThreshold}::int, 'minutes', 60, 'userName', ${who.userName}),
           ${who.facility}
      FROM (SELECT 1 + (SELECT count(*)::int FROM access_grants ag
                         WHERE ag.user_id = ${who.userId} AND ag.granted_at > ${slot.grantAlertSince}::timestamptz) AS n
              FROM ${stored}
             WHERE NOT EXISTS (SELECT 1 FROM security_events e
                                WHERE e.event_type = 'GRANT_VOLUME_ALERT' AND e.user_id = ${who.userId}
                                  AND e.timestamp > now() - interval '60 minutes')) AS c
     WHERE c.n > ${slot.grantAlertThreshold}::int
    RETURNING id`;
}

/** Portal activation codes issued by the user in the hour before `now` (their PORTAL_CODE_ISSUED events; decision 031). */
export const portalCodesInHourSql = (userId: string, now: Date): SQL => sql`
  SELECT count(*)::int FROM security_events e
  WHERE e.event_type = 'PORTAL_CODE_ISSUED' AND e.user_id = ${userId}
    AND e.timestamp > ${now.toISOString()}::timestamptz - interval '1 hour' AND e.timestamp <= ${now.toISOString()}::timestamptz`;

/**
 * PORTAL_DESK_ACTIVATION_ALERT (decision 031), severity CRITICAL: the portal a staff user's code opened, from that
 * user's address or browser soon after issue, was read. Named after the staff user (their name now).
 */
export async function insertDeskActivationAlert(
  db: DbOrTx,
  a: { userId: string; patientId: number; minutes: number; ip: string; userAgent: string | null; description: string },
): Promise<void> {
  await db.execute(sql`
    INSERT INTO security_events (user_id, event_type, severity, description, ip_address, user_agent, metadata, facility)
    SELECT ${a.userId}, 'PORTAL_DESK_ACTIVATION_ALERT', 'CRITICAL', ${a.description}, ${a.ip}, ${a.userAgent},
      jsonb_build_object('count', 1, 'threshold', 0, 'minutes', ${a.minutes}::int, 'patientId', ${a.patientId}::int,
        'userName', coalesce((SELECT u.first_name || ' ' || u.last_name FROM users u WHERE u.id = ${a.userId}), '')),
      (SELECT u.facility FROM users u WHERE u.id = ${a.userId})`);
}

export interface AlertWrite {
  type: 'PORTAL_CODE_VOLUME_ALERT';
  userId: string;
  userName: string;
  facility: string | null;
  ip: string;
  userAgent: string | null;
  /** The figure: the count query (one int). */
  count: SQL;
  threshold: number;
  minutes: number;
  description: string;
}

/**
 * One statement: unless the user has an alert of this kind within the window, counts, and when the count is over
 * the threshold writes the alert. Returns the count (0 when not counted) and whether an alert was written.
 */
export async function raiseAlertOver(db: DbOrTx, a: AlertWrite): Promise<{ count: number; raised: boolean }> {
  // A named prepared statement per alert type (its SQL text depends only on the type): it runs after every search.
  const [row] = await preparedRows<{ count: number; raised: boolean }>(
    db,
    `nhr_alert_${a.type.toLowerCase()}`,
    // A user already alerted in this window is not counted again (the count is the costly part).
    sql`WITH seen AS (SELECT EXISTS (
          SELECT 1 FROM security_events e
          WHERE e.event_type = ${a.type} AND e.user_id = ${a.userId} AND e.timestamp > now() - make_interval(mins => ${a.minutes})) AS alerted),
      c AS (SELECT CASE WHEN (SELECT alerted FROM seen) THEN 0 ELSE (${a.count}) END AS n),
      ins AS (
        INSERT INTO security_events (user_id, event_type, severity, description, ip_address, user_agent, metadata, facility)
        SELECT ${a.userId}, ${a.type}, 'HIGH', ${a.description}, ${a.ip}, ${a.userAgent},
          jsonb_build_object('count', c.n, 'threshold', ${a.threshold}::int, 'minutes', ${a.minutes}::int, 'userName', ${a.userName}::text),
          ${a.facility}
        FROM c
        WHERE c.n > ${a.threshold} AND NOT (SELECT alerted FROM seen)
        RETURNING id)
      SELECT c.n AS count, EXISTS (SELECT 1 FROM ins) AS raised FROM c`,
  );
  return row ?? { count: 0, raised: false };
}

export interface AlertRow {
  id: number;
  at: string;
  type: string;
  severity: string;
  userId: string | null;
  userName: string;
  count: number;
  threshold: number;
  minutes: number;
  /** When the alert's count last grew (its `at` until then). */
  updatedAt: string;
  escalated: boolean;
  /** PATIENT_JOIN_REPORTED's join and records (decision 048); null for every other type. */
  patientJoin: { joinId: number; survivorId: number; mergedId: number } | null;
}

const ALERT_TYPES = sql`e.event_type IN ('BULK_SEARCH_ALERT', 'BULK_SEARCH_DAILY_ALERT', 'GRANT_VOLUME_ALERT', 'SIGN_IN_SPRAY_ALERT',
  'PORTAL_CODE_VOLUME_ALERT', 'PORTAL_DESK_ACTIVATION_ALERT', 'PATIENT_JOIN_REPORTED')`;

/** A page of alerts, newest first, with the user's name at the time. */
export async function selectAlerts(db: DbOrTx, limit: number, offset: number): Promise<{ rows: AlertRow[]; total: number }> {
  const rows = await rowsOf<AlertRow>(
    db,
    sql`SELECT e.id, to_char(e.timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, e.event_type AS type,
        e.severity, e.user_id AS "userId",
        coalesce(e.metadata ->> 'userName', u.first_name || ' ' || u.last_name, '') AS "userName",
        coalesce((e.metadata ->> 'count')::int, 0) AS count, coalesce((e.metadata ->> 'threshold')::int, 0) AS threshold,
        coalesce((e.metadata ->> 'minutes')::int, 0) AS minutes,
        to_char(coalesce((e.metadata ->> 'updatedAt')::timestamptz, e.timestamp) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt",
        e.severity = 'CRITICAL' AS escalated,
        CASE WHEN e.event_type = 'PATIENT_JOIN_REPORTED' THEN
          jsonb_build_object('joinId', (e.metadata ->> 'joinId')::int, 'survivorId', (e.metadata ->> 'survivorId')::int,
                             'mergedId', (e.metadata ->> 'mergedId')::int) END AS "patientJoin"
      FROM security_events e LEFT JOIN users u ON u.id = e.user_id
      WHERE ${ALERT_TYPES}
      ORDER BY e.timestamp DESC, e.id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  const [t] = await rowsOf<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM security_events e WHERE ${ALERT_TYPES}`);
  return { rows, total: t?.n ?? 0 };
}
