// Rate limits (issue 10 items 1 and 8; decisions 011 and 059): N requests per clock-aligned window per key, counted
// one way everywhere: a counter row per key, window and database session (pg_backend_pid()), upserted by each counted
// request, and a limit sums its key's rows of the window. A session runs one transaction at a time, so no two
// transactions ever want the same counter row: requests of one user counted at the same moment never wait on each
// other's lock (they did on one upserted counter row per key), and the check reads at most as many rows as there are
// sessions (migration 0059). Every worker process and every instance on the same PostgreSQL shares the count; the
// embedded database works the same way. Routes opt in with `config: { rateLimit: rateLimitOf(config, 'search') }`
// (@fastify/rate-limit, as a preHandler: after the route's guard and its validation), or count in the statement that
// does their work (limitInStatement).
import fastifyRateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config, RateLimitRule } from '../config';
import { bindSlots, preparedRows, type Db, type Slots } from '../db/client';
import { tooManyRequests } from '../errors/app-error';

export type RateLimitName = keyof Config['rateLimits'];

type IncrCallback = (err: Error | null, res: { current: number; ttl: number }) => void;

/** One in this many counted requests also deletes the rows of windows that ended a day ago. */
const PURGE_ONE_IN = 200;
const DAY_MS = 86_400_000;

/** One in PURGE_ONE_IN calls deletes the counters of windows that began a day ago and earlier (on the window index). */
export async function purgeByChance(db: Db, at: Date): Promise<void> {
  if (Math.floor(Math.random() * PURGE_ONE_IN) !== 0) return;
  await db.execute(sql`DELETE FROM rate_limit_counts WHERE window_start < ${new Date(at.getTime() - DAY_MS).toISOString()}::timestamptz`);
}

/** A store for @fastify/rate-limit: each counted request is limitInStatement's gate and count in one statement. */
export function databaseStore(db: Db, now: () => Date) {
  const incr = async (key: string, windowMs: number, max: number): Promise<{ current: number; ttl: number }> => {
    const at = now();
    const row = await gateAndCount(db, { key, max, windowMs, at });
    // The plugin refuses when current > max: a refused request (not counted) answers max + 1.
    return { current: row.counted + 1, ttl: Math.max(0, row.resetMs - at.getTime()) };
  };
  return class DatabaseRateLimitStore {
    incr(key: string, callback: IncrCallback, timeWindow: number, max: number): void {
      incr(key, timeWindow, max).then(
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

/** A limit as a statement counts it: N (`max`) requests per clock-aligned window of `windowMs` under `key`, as of `at`. */
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

/** The clock-aligned window of `windowMs` that holds `at`: every process and every key starts and ends it together. */
const windowOf = (at: Date, windowMs: number): { start: Date; end: Date } => {
  const start = Math.floor(at.getTime() / windowMs) * windowMs;
  return { start: new Date(start), end: new Date(start + windowMs) };
};

/**
 * For a statement that counts its own request: `gate` is a one-row query (`ok`: under the limit as of the
 * statement's snapshot; `reset_ms`: when the window ends; `counted`: the window's requests so far) that sums the
 * key's counters of the window; `count(when)` adds the request to this session's counter when the SQL boolean `when`
 * holds (put it in a CTE: a data-modifying CTE runs whether or not it is read). The counter is this session's own, so
 * nothing another request waits for is locked: requests of one user that run at the same moment may each see the sum
 * before the others, so at most that many beyond the limit get through.
 */
export function limitInStatement(l: StatementLimit): { gate: SQL; count: (when: SQL) => SQL } {
  return limitSlotted(bindSlots(limitSlotValues(l)));
}

/** The per-request values of a statement limit, for a hot statement built with limitSlotted (db/client hotStatement). */
export interface LimitSlots {
  limitKey: string;
  limitMax: number;
  limitStart: string;
  limitEnd: number;
}

export function limitSlotValues(l: StatementLimit): LimitSlots {
  const { start, end } = windowOf(l.at, l.windowMs);
  return { limitKey: l.key, limitMax: l.max, limitStart: start.toISOString(), limitEnd: end.getTime() };
}

/** limitInStatement over slots: the same gate and count, for a statement built once. */
export function limitSlotted(slot: Slots<LimitSlots>): { gate: SQL; count: (when: SQL) => SQL } {
  return {
    gate: sql`SELECT c.n < ${slot.limitMax}::int AS ok, ${slot.limitEnd}::float8 AS reset_ms, c.n AS counted
      FROM (SELECT coalesce(sum(r.hits), 0)::int AS n FROM rate_limit_counts r
             WHERE r.key = ${slot.limitKey}::text AND r.window_start = ${slot.limitStart}::timestamptz) AS c`,
    count: (when) => sql`INSERT INTO rate_limit_counts AS r (key, window_start, backend, hits)
      SELECT ${slot.limitKey}::text, ${slot.limitStart}::timestamptz, pg_backend_pid(), 1 WHERE ${when}
      ON CONFLICT (key, window_start, backend) DO UPDATE SET hits = r.hits + 1`,
  };
}

/** The 429 of a refused request (as the plugin answers it), with Retry-After. */
export function overLimit(l: StatementLimit, resetMs: number | null): never {
  const seconds = Math.max(1, Math.ceil(((resetMs ?? l.at.getTime() + l.windowMs) - l.at.getTime()) / 1000));
  throw tooManyRequests('RATE_LIMITED', `Too many requests: try again in ${seconds} seconds`, seconds);
}

/** The gate and the count of one limit in a statement of their own: counted only when under the limit. */
async function gateAndCount(db: Db, l: StatementLimit): Promise<{ ok: boolean; resetMs: number; counted: number }> {
  const { gate, count } = limitInStatement(l);
  // A named prepared statement (issue 11): every counted request outside a hot statement runs it.
  const [row] = await preparedRows<{ ok: boolean; resetMs: number; counted: number }>(
    db,
    'nhr_rate_limit_count',
    sql`WITH lim AS MATERIALIZED (${gate}), hit AS (${count(sql`(SELECT ok FROM lim)`)}) SELECT ok, reset_ms AS "resetMs", counted FROM lim`,
  );
  await purgeByChance(db, l.at);
  return row ?? { ok: true, resetMs: windowOf(l.at, l.windowMs).end.getTime(), counted: 0 };
}

/** Counts a request under a statement limit in a statement of its own (paths that cannot fold it in); 429 over it. */
export async function countOrRefuse(db: Db, l: StatementLimit): Promise<void> {
  const row = await gateAndCount(db, l);
  if (!row.ok) overLimit(l, row.resetMs);
}
