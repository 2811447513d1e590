// Reads who calls the FHIR API with a bearer token (decision 020): the system client with this token hash, its
// account, role and permissions, and the caller's count of bad tokens, in one prepared statement that also writes
// last_used_at when it is at least a minute old. Bad tokens are counted per IP in rate_limit_hits (decision 011's
// table, fixed windows), so every process and instance shares the count.
import { sql, type SQL } from 'drizzle-orm';
import { PERMISSIONS, type Permission } from '../../contracts/constants';
import { preparedRows, type Db } from '../db/client';
import type { StaffActor } from './actor';
import { permissionsOf } from './actor.repository';

const known = new Set<string>(PERMISSIONS);

interface ClientRow {
  badTokens: number;
  resetMs: number | null;
  clientId: string | null;
  expired: boolean | null;
  clientName: string | null;
  scopes: string[] | null;
  userId: string | null;
  email: string;
  firstName: string;
  lastName: string;
  roleId: number | null;
  roleName: string | null;
  roleDisplayName: string | null;
  facility: string | null;
  department: string | null;
  permissions: string[];
}

export interface ClientTokenLookup {
  /** Bad tokens counted for this key in the live window (0 when none). */
  badTokens: number;
  /** Milliseconds until the bad-token window ends (0 when there is none). */
  windowLeftMs: number;
  /** The client's actor, or null: unknown, revoked or expired token, or its account no longer active. */
  actor: StaffActor | null;
  /** The token is a live client's, but past its expiry (decision 030). */
  expired: boolean;
}

/**
 * The live client with this token hash as a staff actor with `client` set, and the bad-token count under
 * `throttleKey`. The client's account must be active with account status `systemStatus`. last_used_at is written only
 * when it is at least `touchMs` old and the caller is not over `throttleMax` (a throttled call is refused anyway).
 */
export async function loadClientActor(
  db: Db,
  tokenHash: string,
  now: Date,
  touchMs: number,
  throttleKey: string,
  throttleMax: number,
  systemStatus: string,
): Promise<ClientTokenLookup> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const ms = (n: number): SQL => sql`(${n}::int * interval '1 millisecond')`;
  const [row] = await preparedRows<ClientRow>(
    db,
    'nhr_client_actor',
    sql`WITH b AS (SELECT coalesce(max(h.hits), 0) AS n, max(extract(epoch FROM h.reset_at) * 1000)::float8 AS "resetMs"
                 FROM rate_limit_hits h WHERE h.key = ${throttleKey} AND h.reset_at > ${at}),
        c AS (SELECT ac.id, ac.name, ac.scopes, ac.user_id, ac.last_used_at, ac.expires_at <= ${at} AS expired FROM api_clients ac
               WHERE ac.token_hash = ${tokenHash} AND ac.revoked_at IS NULL),
        -- Not referenced below: a data-modifying WITH runs whether or not the query reads it.
        t AS (UPDATE api_clients AS x SET last_used_at = ${at} FROM c
               WHERE x.id = c.id AND NOT c.expired AND (c.last_used_at IS NULL OR c.last_used_at <= ${at} - ${ms(touchMs)})
                 AND (SELECT n FROM b) < ${throttleMax}::int
               RETURNING x.id)
        SELECT b.n AS "badTokens", b."resetMs", c.id AS "clientId", c.expired, c.name AS "clientName", c.scopes,
               u.id AS "userId", u.email, u.first_name AS "firstName", u.last_name AS "lastName",
               u.role_id AS "roleId", r.name AS "roleName", r.display_name AS "roleDisplayName", u.facility, u.department,
               CASE WHEN u.id IS NULL THEN '[]'::json ELSE ${permissionsOf(sql`u.id`, sql`u.role_id`, sql`r.is_active`)} END AS permissions
          FROM b
          LEFT JOIN c ON true
          LEFT JOIN users AS u ON u.id = c.user_id AND u.is_active AND u.account_status = ${systemStatus}
          LEFT JOIN roles AS r ON r.id = u.role_id`,
  );
  const badTokens = row?.badTokens ?? 0;
  const windowLeftMs = row?.resetMs ? Math.max(0, row.resetMs - now.getTime()) : 0;
  if (!row?.clientId || !row.userId || !row.clientName) return { badTokens, windowLeftMs, actor: null, expired: false };
  if (row.expired) return { badTokens, windowLeftMs, actor: null, expired: true };
  const actor: StaffActor = {
    kind: 'staff',
    userId: row.userId,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    roleId: row.roleId,
    roleName: row.roleName,
    roleDisplayName: row.roleDisplayName,
    facility: row.facility,
    department: row.department,
    permissions: new Set(row.permissions.filter((p): p is Permission => known.has(p))),
    client: { id: row.clientId, name: row.clientName, scopes: new Set(row.scopes ?? []) },
  };
  return { badTokens, windowLeftMs, actor, expired: false };
}

/** Counts one bad token under `key` (a fixed window of `windowMs`); answers the count and the ms until the window ends. */
export async function countBadToken(db: Db, key: string, windowMs: number, now: Date): Promise<{ hits: number; ttlMs: number }> {
  const at = now.toISOString();
  const reset = new Date(now.getTime() + windowMs).toISOString();
  const [row] = await preparedRows<{ hits: number; resetMs: number }>(
    db,
    'nhr_bad_token_incr',
    sql`INSERT INTO rate_limit_hits AS h (key, hits, reset_at) VALUES (${key}, 1, ${reset}::timestamptz)
        ON CONFLICT (key) DO UPDATE SET
          hits = CASE WHEN h.reset_at <= ${at}::timestamptz THEN 1 ELSE h.hits + 1 END,
          reset_at = CASE WHEN h.reset_at <= ${at}::timestamptz THEN excluded.reset_at ELSE h.reset_at END
        RETURNING hits, (extract(epoch FROM reset_at) * 1000)::float8 AS "resetMs"`,
  );
  return { hits: row?.hits ?? 1, ttlMs: Math.max(0, (row?.resetMs ?? now.getTime() + windowMs) - now.getTime()) };
}
