// Reads who calls the FHIR API with a bearer token (decision 020): the system client with this token hash, its
// account, role and permissions, and the caller's count of bad tokens, in one prepared statement that also writes
// last_used_at when it is at least a minute old. The token is a client's static token (api_clients.token_hash) or a
// short-lived access token from the SMART token endpoint (smart_access_tokens, decision 050: its own scopes). Bad
// tokens are counted per token fingerprint and per IP as every rate limit is (http/rate-limit's limitInStatement,
// decision 059), so every process and instance shares the count.
import { sql, type SQL } from 'drizzle-orm';
import { PERMISSIONS, type Permission } from '../../contracts/constants';
import { preparedRows, type Db } from '../db/client';
import type { StaffActor } from './actor';
import { permissionsOf } from './actor.repository';
import { limitInStatement, type StatementLimit } from '../http/rate-limit';

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

/** The two limits bad tokens are counted under (decision 050): per token fingerprint and per address. */
export interface BadTokenKeys {
  token: StatementLimit;
  address: StatementLimit;
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
  const token = limitInStatement(keys.token);
  const address = limitInStatement(keys.address);
  const [row] = await preparedRows<ClientRow>(
    db,
    'nhr_client_actor',
    sql`WITH tl AS MATERIALIZED (${token.gate}), al AS MATERIALIZED (${address.gate}),
        b AS (SELECT tl.counted AS tn, tl.reset_ms AS tr, al.counted AS an, al.reset_ms AS ar FROM tl, al),
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
  const tokenCount = { hits: row?.tokenHits ?? 0, windowLeftMs: left(row?.tokenResetMs) };
  const addressCount = { hits: row?.addressHits ?? 0, windowLeftMs: left(row?.addressResetMs) };
  if (!row?.clientId || !row.userId || !row.clientName) return { token: tokenCount, address: addressCount, actor: null, expired: false };
  if (row.expired) return { token: tokenCount, address: addressCount, actor: null, expired: true };
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
  return { token: tokenCount, address: addressCount, actor, expired: false };
}

/**
 * Counts one bad token under both limits in one statement (each only while under its limit, so a token over its own
 * limit is not counted against the address); answers each count, this one included, and the ms until its window ends.
 */
export async function countBadToken(db: Db, keys: BadTokenKeys): Promise<{ token: BadTokenCount; address: BadTokenCount }> {
  const token = limitInStatement(keys.token);
  const address = limitInStatement(keys.address);
  const [row] = await preparedRows<{ tn: number; tr: number; an: number; ar: number }>(
    db,
    'nhr_bad_token_count',
    sql`WITH tl AS MATERIALIZED (${token.gate}), al AS MATERIALIZED (${address.gate}),
             ti AS (${token.count(sql`(SELECT ok FROM tl)`)}), ai AS (${address.count(sql`(SELECT ok FROM al)`)})
        SELECT tl.counted AS tn, tl.reset_ms AS tr, al.counted AS an, al.reset_ms AS ar FROM tl, al`,
  );
  const of = (l: StatementLimit, counted: number | undefined, resetMs: number | undefined): BadTokenCount => ({
    hits: (counted ?? 0) + 1,
    windowLeftMs: Math.max(0, (resetMs ?? l.at.getTime() + l.windowMs) - l.at.getTime()),
  });
  return { token: of(keys.token, row?.tn, row?.tr), address: of(keys.address, row?.an, row?.ar) };
}
