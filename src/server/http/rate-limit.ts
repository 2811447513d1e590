// Rate limits (issue 10 items 1 and 8; docs/decisions/011-rate-limits-and-volume-alerts.md): @fastify/rate-limit with
// its counters in the database (rate_limit_hits, fixed windows), so every worker process and every instance on the
// same PostgreSQL shares them; the embedded database works the same way. Routes opt in with
// `config: { rateLimit: rateLimitOf(config, 'search') }`; staff routes are counted per user, registration per IP.
// The limit runs as a preHandler: after the route's guard (a refused caller costs nothing) and its validation.
import fastifyRateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config, RateLimitRule } from '../config';
import { preparedRows, type Db } from '../db/client';
import { tooManyRequests } from '../errors/app-error';

export type RateLimitName = keyof Config['rateLimits'];

type IncrCallback = (err: Error | null, res: { current: number; ttl: number }) => void;

/** One in this many increments also deletes counters whose window ended a day ago. */
const PURGE_ONE_IN = 200;

/** The upsert of one counted request: a new window when the last one has ended (fixed windows). */
const incrementSql = (
  key: string | SQL,
  windowMs: number,
  at: Date,
  when: SQL = sql`true`,
  windowEnd = new Date(at.getTime() + windowMs),
): SQL => sql`
  INSERT INTO rate_limit_hits AS h (key, hits, reset_at)
  SELECT ${key}, 1, ${windowEnd.toISOString()}::timestamptz WHERE ${when}
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN h.reset_at <= ${at.toISOString()}::timestamptz THEN 1 ELSE h.hits + 1 END,
    reset_at = CASE WHEN h.reset_at <= ${at.toISOString()}::timestamptz THEN excluded.reset_at ELSE h.reset_at END`;

/** One in PURGE_ONE_IN calls deletes counters whose window ended a day ago. */
export async function purgeByChance(db: Db, at: Date): Promise<void> {
  if (Math.floor(Math.random() * PURGE_ONE_IN) !== 0) return;
  await db.execute(sql`DELETE FROM rate_limit_hits WHERE reset_at < ${new Date(at.getTime() - 86_400_000).toISOString()}::timestamptz`);
}

/** Counts one request under `key`; the hits of the window so far (this one included) and the ms until it ends. */
async function increment(db: Db, key: string, windowMs: number, at: Date): Promise<{ current: number; ttl: number }> {
  // A named prepared statement (issue 11): every counted request runs it.
  const [row] = await preparedRows<{ hits: number; resetMs: number }>(
    db,
    'nhr_rate_limit_incr',
    sql`${incrementSql(key, windowMs, at)} RETURNING hits, (extract(epoch FROM reset_at) * 1000)::float8 AS "resetMs"`,
  );
  await purgeByChance(db, at);
  return { current: row?.hits ?? 1, ttl: Math.max(0, (row?.resetMs ?? at.getTime() + windowMs) - at.getTime()) };
}

/** A store for @fastify/rate-limit over the rate_limit_hits table (one upsert per counted request). */
export function databaseStore(db: Db, now: () => Date) {
  const incr = (key: string, windowMs: number): Promise<{ current: number; ttl: number }> => increment(db, key, windowMs, now());
  return class DatabaseRateLimitStore {
    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      incr(key, timeWindow).then(
        (res) => callback(null, res),
        (err: unknown) => callback(err as Error, { current: 0, ttl: 0 }),
      );
    }
    child(): DatabaseRateLimitStore {
      return new DatabaseRateLimitStore();
    }
  };
}

/** Registers the plugin (before the routes, so its onRoute hook sees them). Nothing is limited unless a route asks. */
export async function registerRateLimits(app: FastifyInstance, db: Db, config: Config): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    hook: 'preHandler',
    store: databaseStore(db, config.now),
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    errorResponseBuilder: (_request, context) =>
      tooManyRequests('RATE_LIMITED', `Too many requests: try again in ${context.after}`, Math.ceil(context.ttl / 1000)),
  });
}

const who = (request: FastifyRequest): string => (request.actor?.kind === 'staff' ? `user:${request.actor.userId}` : `ip:${request.ip}`);

/** The route config of one named limit: per user for signed-in staff, else per IP (registration). */
export function rateLimitOf(config: Config, name: RateLimitName): RateLimitOptions {
  const rule: RateLimitRule = config.rateLimits[name];
  return {
    max: rule.max,
    timeWindow: rule.windowMs,
    keyGenerator: (request) => `${name}:${name === 'registration' ? `ip:${request.ip}` : who(request)}`,
  };
}

/**
 * A limit counted by the route's own statement instead of the plugin (issue 11, decision 014: the search): the
 * key rateLimitOf makes and a fixed window, without a round trip of its own; its counter is spread over
 * STATEMENT_LIMIT_ROWS rows (decision 028).
 */
export interface StatementLimit {
  key: string;
  max: number;
  windowMs: number;
  at: Date;
}

/**
 * The limit `name` of a signed-in staff user, as of `at`; `max`, when given, replaces the configured maximum (a system
 * client's own limit set by an administrator, decision 050).
 */
export function staffLimit(config: Config, name: RateLimitName, userId: string, at: Date, max?: number | null): StatementLimit {
  const rule = config.rateLimits[name];
  return { key: `${name}:user:${userId}`, max: max ?? rule.max, windowMs: rule.windowMs, at };
}

/**
 * A statement limit's counter is spread over this many rows (`<key>#<n>`, n from the connection's backend), as the
 * audit chains are: one user's requests that run at the same moment take different rows, so they do not queue on
 * one row's lock until each other's commit (decision 028). Their windows are aligned to the clock (each ends at a
 * multiple of the window), so the rows of a key start and end their windows together and their sum is the count.
 */
export const STATEMENT_LIMIT_ROWS = 8;

const shardKeys = (key: string): string[] => Array.from({ length: STATEMENT_LIMIT_ROWS }, (_, n) => `${key}#${n}`);

/** The end of the clock-aligned window of `windowMs` that holds `at`. */
const alignedWindowEnd = (at: Date, windowMs: number): Date => new Date(Math.floor(at.getTime() / windowMs) * windowMs + windowMs);

/**
 * For a statement that counts its own request: `gate` is a one-row query (`ok`: under the limit as of the
 * statement's snapshot; `reset_ms`: when the current window ends); `count(when)` is the counter's upsert (only when
 * the SQL boolean `when` holds), to put in a CTE the outer query does not read, so PostgreSQL runs it after the rest
 * of the statement and the counter's row stays locked only from there to the commit. Requests of one user that run
 * at the same moment may each see the count before the others: at most that many beyond the limit get through.
 */
export function limitInStatement(l: StatementLimit): { gate: SQL; count: (when: SQL) => SQL } {
  const at = sql`${l.at.toISOString()}::timestamptz`;
  const keys = sql.join(
    shardKeys(l.key).map((k) => sql`${k}`),
    sql`, `,
  );
  return {
    gate: sql`SELECT coalesce(sum(h.hits), 0) < ${l.max}::int AS ok, (extract(epoch FROM min(h.reset_at)) * 1000)::float8 AS reset_ms
      FROM rate_limit_hits h WHERE h.key IN (${keys}) AND h.reset_at > ${at}`,
    count: (when) =>
      incrementSql(
        sql`${l.key} || '#' || (pg_backend_pid() % ${STATEMENT_LIMIT_ROWS}::int)::text`,
        l.windowMs,
        l.at,
        when,
        alignedWindowEnd(l.at, l.windowMs),
      ),
  };
}

/** The 429 of a refused request (as the plugin answers it), with Retry-After. */
export function overLimit(l: StatementLimit, resetMs: number | null): never {
  const seconds = Math.max(1, Math.ceil(((resetMs ?? l.at.getTime() + l.windowMs) - l.at.getTime()) / 1000));
  throw tooManyRequests('RATE_LIMITED', `Too many requests: try again in ${seconds} seconds`, seconds);
}

/** Counts a request under a statement limit in a statement of its own (paths that cannot fold it in); 429 over it. */
export async function countOrRefuse(db: Db, l: StatementLimit): Promise<void> {
  const { gate, count } = limitInStatement(l);
  const [row] = await preparedRows<{ ok: boolean; resetMs: number | null }>(
    db,
    'nhr_rate_limit_statement',
    sql`WITH lim AS MATERIALIZED (${gate}), hit AS (${count(sql`true`)}) SELECT ok, reset_ms AS "resetMs" FROM lim`,
  );
  await purgeByChance(db, l.at);
  if (!row?.ok) overLimit(l, row?.resetMs ?? null);
}
