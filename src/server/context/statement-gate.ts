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
import type { Slots } from '../db/client';
import { limitSlotted, limitSlotValues, overLimit, purgeByChance, type LimitSlots } from '../http/rate-limit';
import { UnconfirmedActorError } from './actor-check';
import type { RequestScope } from './data-context';
import { actorCheckSlotted, actorSlotsOf, type ActorSlots } from './session';

/**
 * The scope's gate as a hot statement takes it: only the request's values. The statement's text is built once per
 * shape (GateShape) from slots (gateSlotted), so nothing of the gate's SQL is built per request (issue 29 item 3).
 */
export interface StatementGate {
  /** The request's rate limit's values (http/rate-limit's limitSlotValues). */
  limitSlots?: LimitSlots | undefined;
  /** The cached actor's confirmation's values (context/session's actorSlotsOf). */
  actorSlots?: ActorSlots | undefined;
}

/** What a gated statement's text depends on. */
export interface GateShape {
  limit: boolean;
  actor: boolean;
}

/** The slots of a gated statement (those of its shape are filled). */
export type GateSlots = LimitSlots & ActorSlots;

/** The gate's values for the statement's slots, as parts of its slotValues (db/client): the limit's, the actor's. */
export const gateSlotValues = (gate: StatementGate): [Partial<LimitSlots>, Partial<ActorSlots>] => [
  gate.limitSlots ?? {},
  gate.actorSlots ?? {},
];

/** The gate's SQL over slots, for a statement of `shape` built once. */
export interface GateSql {
  limit?: { gate: SQL; count: (when: SQL) => SQL };
  actor?: SQL;
}

export const gateSlotted = (slot: Slots<GateSlots>, shape: GateShape): GateSql => ({
  ...(shape.limit ? { limit: limitSlotted(slot) } : {}),
  ...(shape.actor ? { actor: actorCheckSlotted(slot) } : {}),
});

/** What the gate answers, as the outer query selects it (GATE_COLUMNS). */
export interface GateColumns {
  actorOk: boolean;
  limitOk: boolean;
  limitResetMs: number | null;
}

/** The leading CTEs, without WITH and with a trailing comma: the actor's (when given), then `lim`. */
export function gateCtes({ limit, actor }: GateSql): SQL {
  const actorOk = actor ? sql`(SELECT ok FROM actor_ok)` : sql`true`;
  const gate = limit ? limit.gate : sql`SELECT true AS ok, NULL::float8 AS reset_ms`;
  return sql`${actor ? sql`${actor},` : sql``}
             lim AS MATERIALIZED (SELECT ${actorOk} AS actor_ok, ${actorOk} AND g.ok AS ok, g.reset_ms FROM (${gate}) AS g),`;
}

/**
 * The trailing CTE that counts the request when the gate passed (or when `when`, a condition that includes the gate's
 * `ok`, holds), with its leading comma; nothing without a limit.
 */
export const countCte = ({ limit }: GateSql, when: SQL = sql`(SELECT ok FROM lim)`): SQL =>
  limit
    ? sql`,
             hit AS (${limit.count(when)})`
    : sql``;

/** The gate's answer in the outer query (read from `lim`). */
export const GATE_COLUMNS = sql`lim.actor_ok AS "actorOk", lim.ok AS "limitOk", lim.reset_ms AS "limitResetMs"`;

/** The statement's name suffix for the gate's shape (a prepared statement's text depends only on its name). */
export const gateName = ({ limit, actor }: GateShape): string => `${limit ? '_limited' : ''}${actor ? '_actor' : ''}`;

/** The gate of `scope` for its statement: nothing to confirm and nothing to count when the scope has no gate. */
export function statementGateOf(scope: RequestScope): StatementGate {
  const { check = null, limit = null } = scope.gate ?? {};
  return { limitSlots: limit ? limitSlotValues(limit) : undefined, actorSlots: check ? actorSlotsOf(check) : undefined };
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
