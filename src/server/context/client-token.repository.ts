// Reads who calls the FHIR API with a bearer token (decision 020): the system client with this token hash, its
// account, role and permissions, and the caller's count of bad tokens, in one prepared statement that also writes
// last_used_at when it is at least a minute old. The token is a client's static token (api_clients.token_hash) or a
// short-lived access token from the SMART token endpoint (smart_access_tokens, decision 050: its own scopes). Bad
// tokens are counted per token fingerprint and per IP in rate_limit_hits (decision 011's table, fixed windows), so
// every process and instance shares the count.
import { sql, type SQL } from 'drizzle-orm';
import { PERMISSIONS, type Permission } from '../../contracts/constants';
import { preparedRows, type Db } from '../db/client';
import type { StaffActor } from './actor';
import { permissionsOf } from './actor.repository';

const known = new Set<string>(PERMISSIONS);

interface ClientRow {
  tokenHits: number;
  tokenResetMs: number | null;
  addressHits: number;
  addressResetMs: number | null;
  searchesPerMinute: number | null;
  openingsPerHour: number | null;
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

/** A bad-token counter as read: its hits in the live window (0 when none) and the ms until the window ends. */
export interface BadTokenCount {
  hits: number;
  windowLeftMs: number;
}

/** The two keys bad tokens are counted under (decision 050) and their limits. */
export interface BadTokenKeys {
  token: { key: string; max: number };
  address: { key: string; max: number };
}

export interface ClientTokenLookup {
  /** Bad tokens counted for this token's fingerprint. */
  token: BadTokenCount;
  /** Bad tokens counted for the caller's address. */
  address: BadTokenCount;
  /** The client's actor, or null: unknown, revoked or expired token, or its account no longer active. */
  actor: StaffActor | null;
  /** The token is a live client's, but past its expiry (decision 030). */
  expired: boolean;
}

/**
 * The live client with this token hash (a static token, or a SMART access token with its own scopes and expiry) as a
 * staff actor with `client` set, and the bad-token counts under both keys. The client's account must be active with
 * account status `systemStatus`. last_used_at is written only when it is at least `touchMs` old and the caller is
 * under both limits (a throttled call is refused anyway).
 */
export async function loadClientActor(
  db: Db,
  tokenHash: string,
  now: Date,
  touchMs: number,
  keys: BadTokenKeys,
  systemStatus: string,
): Promise<ClientTokenLookup> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const ms = (n: number): SQL => sql`(${n}::int * interval '1 millisecond')`;
  const [row] = await preparedRows<ClientRow>(
    db,
    'nhr_client_actor',
    sql`WITH b AS (SELECT coalesce(max(h.hits) FILTER (WHERE h.key = ${keys.token.key}), 0) AS tn,
                      max(extract(epoch FROM h.reset_at) * 1000) FILTER (WHERE h.key = ${keys.token.key})::float8 AS tr,
                      coalesce(max(h.hits) FILTER (WHERE h.key = ${keys.address.key}), 0) AS an,
                      max(extract(epoch FROM h.reset_at) * 1000) FILTER (WHERE h.key = ${keys.address.key})::float8 AS ar
                 FROM rate_limit_hits h WHERE h.key IN (${keys.token.key}, ${keys.address.key}) AND h.reset_at > ${at}),
        c AS (SELECT ac.id, ac.name, ac.scopes, ac.user_id, ac.last_used_at, ac.expires_at <= ${at} AS expired,
                     ac.searches_per_minute, ac.openings_per_hour FROM api_clients ac
               WHERE ac.token_hash = ${tokenHash} AND ac.revoked_at IS NULL
              UNION ALL
              SELECT ac.id, ac.name, st.scopes, ac.user_id, ac.last_used_at, st.expires_at <= ${at} AS expired,
                     ac.searches_per_minute, ac.openings_per_hour FROM smart_access_tokens st
                JOIN api_clients ac ON ac.id = st.client_id AND ac.revoked_at IS NULL
               WHERE st.token_hash = ${tokenHash}
               LIMIT 1),
        -- Not referenced below: a data-modifying WITH runs whether or not the query reads it.
        t AS (UPDATE api_clients AS x SET last_used_at = ${at} FROM c
               WHERE x.id = c.id AND NOT c.expired AND (c.last_used_at IS NULL OR c.last_used_at <= ${at} - ${ms(touchMs)})
                 AND (SELECT tn FROM b) < ${keys.token.max}::int AND (SELECT an FROM b) < ${keys.address.max}::int
               RETURNING x.id)
        SELECT b.tn AS "tokenHits", b.tr AS "tokenResetMs", b.an AS "addressHits", b.ar AS "addressResetMs",
               c.id AS "clientId", c.expired, c.name AS "clientName", c.scopes,
               c.searches_per_minute AS "searchesPerMinute", c.openings_per_hour AS "openingsPerHour",
               u.id AS "userId", u.email, u.first_name AS "firstName", u.last_name AS "lastName",
               u.role_id AS "roleId", r.name AS "roleName", r.display_name AS "roleDisplayName", u.facility, u.department,
               CASE WHEN u.id IS NULL THEN '[]'::json ELSE ${permissionsOf(sql`u.id`, sql`u.role_id`, sql`r.is_active`)} END AS permissions
          FROM b
          LEFT JOIN c ON true
          LEFT JOIN users AS u ON u.id = c.user_id AND u.is_active AND u.account_status = ${systemStatus}
          LEFT JOIN roles AS r ON r.id = u.role_id`,
  );
  const left = (resetMs: number | null | undefined): number => (resetMs ? Math.max(0, resetMs - now.getTime()) : 0);
  const token = { hits: row?.tokenHits ?? 0, windowLeftMs: left(row?.tokenResetMs) };
  const address = { hits: row?.addressHits ?? 0, windowLeftMs: left(row?.addressResetMs) };
  if (!row?.clientId || !row.userId || !row.clientName) return { token, address, actor: null, expired: false };
  if (row.expired) return { token, address, actor: null, expired: true };
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
    client: {
      id: row.clientId,
      name: row.clientName,
      scopes: new Set(row.scopes ?? []),
      limits: { search: row.searchesPerMinute, accessGrant: row.openingsPerHour },
    },
  };
  return { token, address, actor, expired: false };
}

/**
 * Counts one bad token under both keys (fixed windows of `windowMs`) in one statement; answers each count and the ms
 * until its window ends.
 */
export async function countBadToken(
  db: Db,
  keys: BadTokenKeys,
  windowMs: number,
  now: Date,
): Promise<{ token: BadTokenCount; address: BadTokenCount }> {
  const at = now.toISOString();
  const reset = new Date(now.getTime() + windowMs).toISOString();
  const rows = await preparedRows<{ key: string; hits: number; resetMs: number }>(
    db,
    'nhr_bad_token_incr2',
    sql`INSERT INTO rate_limit_hits AS h (key, hits, reset_at)
        VALUES (${keys.token.key}, 1, ${reset}::timestamptz), (${keys.address.key}, 1, ${reset}::timestamptz)
        ON CONFLICT (key) DO UPDATE SET
          hits = CASE WHEN h.reset_at <= ${at}::timestamptz THEN 1 ELSE h.hits + 1 END,
          reset_at = CASE WHEN h.reset_at <= ${at}::timestamptz THEN excluded.reset_at ELSE h.reset_at END
        RETURNING key, hits, (extract(epoch FROM reset_at) * 1000)::float8 AS "resetMs"`,
  );
  const of = (key: string): BadTokenCount => {
    const row = rows.find((r) => r.key === key);
    return { hits: row?.hits ?? 1, windowLeftMs: Math.max(0, (row?.resetMs ?? now.getTime() + windowMs) - now.getTime()) };
  };
  return { token: of(keys.token.key), address: of(keys.address.key) };
}
