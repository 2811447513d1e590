// The gate a hot statement opens with (issue 11, decisions 014 and 028): the cached actor's confirmation and the
// request's rate limit, as CTEs of the statement that does the work. `lim` (one row: actor_ok, ok, reset_ms) runs
// first and everything else waits on `(SELECT ok FROM lim)`; the limit's count is a CTE nothing reads, so PostgreSQL
// runs it last, and it counts only a request whose actor was confirmed.
import { sql, type SQL } from 'drizzle-orm';

export interface StatementGate {
  /** The request's rate limit (http/rate-limit's limitInStatement). */
  limit?: { gate: SQL; count: (when: SQL) => SQL } | undefined;
  /** The cached actor's confirmation (context/session's actorCheckSql): its CTEs end in `actor_ok`. */
  actor?: SQL | undefined;
}

/** What the gate answers, as the outer query selects it (GATE_COLUMNS). */
export interface GateColumns {
  actorOk: boolean;
  limitOk: boolean;
  limitResetMs: number | null;
}

/** The leading CTEs, without WITH and with a trailing comma: the actor's (when given), then `lim`. */
export function gateCtes({ limit, actor }: StatementGate): SQL {
  const actorOk = actor ? sql`(SELECT ok FROM actor_ok)` : sql`true`;
  const gate = limit ? limit.gate : sql`SELECT true AS ok, NULL::float8 AS reset_ms`;
  return sql`${actor ? sql`${actor},` : sql``}
             lim AS MATERIALIZED (SELECT ${actorOk} AS actor_ok, ${actorOk} AND g.ok AS ok, g.reset_ms FROM (${gate}) AS g),`;
}

/** The trailing CTE that counts the request (with its leading comma), or nothing without a limit. */
export const countCte = ({ limit }: StatementGate): SQL =>
  limit
    ? sql`,
             hit AS (${limit.count(sql`(SELECT actor_ok FROM lim)`)})`
    : sql``;

/** The gate's answer in the outer query (read from `lim`). */
export const GATE_COLUMNS = sql`lim.actor_ok AS "actorOk", lim.ok AS "limitOk", lim.reset_ms AS "limitResetMs"`;

/** The statement's name suffix for the gate's shape (a prepared statement's text depends only on its name). */
export const gateName = ({ limit, actor }: StatementGate): string => `${limit ? '_limited' : ''}${actor ? '_actor' : ''}`;
