// Rate limits (issue 10 items 1 and 8; docs/decisions/011-rate-limits-and-volume-alerts.md): @fastify/rate-limit with
// its counters in the database (rate_limit_hits, fixed windows), so every worker process and every instance on the
// same PostgreSQL shares them; the embedded database works the same way. Routes opt in with
// `config: { rateLimit: rateLimitOf(config, 'search') }`; staff routes are counted per user, registration per IP.
// The limit runs as a preHandler: after the route's guard (a refused caller costs nothing) and its validation.
import fastifyRateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config, RateLimitRule } from '../config';
import { preparedRows, type Db } from '../db/client';
import { tooManyRequests } from '../errors/app-error';

export type RateLimitName = keyof Config['rateLimits'];

type IncrCallback = (err: Error | null, res: { current: number; ttl: number }) => void;

/** One in this many increments also deletes counters whose window ended a day ago. */
const PURGE_ONE_IN = 200;

/** A store for @fastify/rate-limit over the rate_limit_hits table (one upsert per counted request). */
export function databaseStore(db: Db, now: () => Date) {
  const incr = async (key: string, windowMs: number): Promise<{ current: number; ttl: number }> => {
    const at = now();
    const reset = new Date(at.getTime() + windowMs);
    // A named prepared statement (issue 11): every counted request runs it.
    const rows = await preparedRows<{ hits: number; resetMs: number }>(
      db,
      'nhr_rate_limit_incr',
      sql`
      INSERT INTO rate_limit_hits AS h (key, hits, reset_at) VALUES (${key}, 1, ${reset.toISOString()}::timestamptz)
      ON CONFLICT (key) DO UPDATE SET
        hits = CASE WHEN h.reset_at <= ${at.toISOString()}::timestamptz THEN 1 ELSE h.hits + 1 END,
        reset_at = CASE WHEN h.reset_at <= ${at.toISOString()}::timestamptz THEN excluded.reset_at ELSE h.reset_at END
      RETURNING hits, (extract(epoch FROM reset_at) * 1000)::float8 AS "resetMs"`,
    );
    const [row] = rows;
    if (Math.floor(Math.random() * PURGE_ONE_IN) === 0) {
      await db.execute(sql`DELETE FROM rate_limit_hits WHERE reset_at < ${new Date(at.getTime() - 86_400_000).toISOString()}::timestamptz`);
    }
    return { current: row?.hits ?? 1, ttl: Math.max(0, (row?.resetMs ?? reset.getTime()) - at.getTime()) };
  };
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
