// The gate of a hot statement (issue 11, decisions 014, 028 and 059): the request scope's gate (the cached actor's
// confirmation and the request's rate limit, built by the request context) as CTEs of the one statement that does
// the work and appends its audit row. `lim` (one row: actor_ok, ok, reset_ms) runs first and everything else waits
// on `(SELECT ok FROM lim)`; the limit's count is an insert nothing reads, made only when `ok` (the actor confirmed
// and the request under the limit).
//
//   const found = await inGatedStatement(scope, (gate) => findExactAudited(scope.db, search, audit, gate));
//
// inGatedStatement is the one-statement twin of inAuditedTransaction: the statement answers the gate's columns,
// and a closed gate is answered the same way on every hot path (UnconfirmedActorError for the request context to
// retry with the actor read anew, or 429 with the window's reset).
import { sql, type SQL } from 'drizzle-orm';
import { limitInStatement, limitSlotValues, overLimit, purgeByChance, type LimitSlots } from '../http/rate-limit';
import { UnconfirmedActorError } from './actor-check';
import type { RequestScope } from './data-context';
import { actorCheckSql, actorSlotsOf, type ActorSlots } from './session';

/** The scope's gate as a statement takes it. */
export interface StatementGate {
  /** The request's rate limit (http/rate-limit's limitInStatement). */
  limit?: { gate: SQL; count: (when: SQL) => SQL } | undefined;
  /** The same limit's values, for a hot statement built with limitSlotted (db/client hotStatement). */
  limitSlots?: LimitSlots | undefined;
  /** The cached actor's confirmation (context/session's actorCheckSql): its CTEs end in `actor_ok`. */
  actor?: SQL | undefined;
  /** The same confirmation as a hot statement's slot values (actorCheckSlotted). */
  actorSlots?: ActorSlots | undefined;
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

/** The trailing CTE that counts the request when the gate passed (with its leading comma), or nothing without a limit. */
export const countCte = ({ limit }: StatementGate): SQL =>
  limit
    ? sql`,
             hit AS (${limit.count(sql`(SELECT ok FROM lim)`)})`
    : sql``;

/** The gate's answer in the outer query (read from `lim`). */
export const GATE_COLUMNS = sql`lim.actor_ok AS "actorOk", lim.ok AS "limitOk", lim.reset_ms AS "limitResetMs"`;

/** The statement's name suffix for the gate's shape (a prepared statement's text depends only on its name). */
export const gateName = ({ limit, actor }: StatementGate): string => `${limit ? '_limited' : ''}${actor ? '_actor' : ''}`;

/** The gate of `scope` for its statement: nothing to confirm and nothing to count when the scope has no gate. */
export function statementGateOf(scope: RequestScope): StatementGate {
  const { check = null, limit = null } = scope.gate ?? {};
  return {
    ...(limit ? { limit: limitInStatement(limit), limitSlots: limitSlotValues(limit) } : {}),
    ...(check ? { actor: actorCheckSql(check), actorSlots: actorSlotsOf(check) } : {}),
  };
}

/** The gate of a statement that confirms the actor but counts no limit (a record open). */
export const actorGate = (actorOk: boolean): GateColumns => ({ actorOk, limitOk: actorOk, limitResetMs: null });

/** A gated statement's outcome: the gate's answer, and the work's when the gate passed. */
export interface GatedOutcome {
  gate: GateColumns;
}

/**
 * Runs the one statement of a hot path under the scope's gate and answers a closed gate: UnconfirmedActorError
 * when the cached actor was not confirmed (the request context reads it anew and runs the service again), 429 when
 * over the limit. Nothing of the work was done or audited in either case.
 */
export async function inGatedStatement<R extends GatedOutcome>(scope: RequestScope, run: (gate: StatementGate) => Promise<R>): Promise<R> {
  const outcome = await run(statementGateOf(scope));
  const limit = scope.gate?.limit;
  if (limit) await purgeByChance(scope.db, limit.at);
  if (!outcome.gate.actorOk) throw new UnconfirmedActorError();
  if (!outcome.gate.limitOk) overLimit(limit!, outcome.gate.limitResetMs);
  return outcome;
}

/** A path that cannot confirm a cached actor in one statement (several statements): it asks for the actor read anew. */
export function refuseCachedActor(scope: RequestScope): void {
  if (scope.gate?.check) throw new UnconfirmedActorError();
}
