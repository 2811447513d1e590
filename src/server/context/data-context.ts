// The per-request data context (docs/decisions/009-data-context.md, STYLE habits 3 and 5): one transaction that
// knows who asks (actor, request meta, the server's clock) and commits only together with its audit rows.
//
//   return inAuditedTransaction(request.scope, async (ctx) => {
//     const rows = await selectThings(ctx, …);          // repositories take the context, never a bare db
//     return ctx.audited(rows, { action: 'VIEW', resourceType: 'PATIENT', … });
//   });
//
// The work must return `Audited<T>`, which only `ctx.audited` makes: a unit of work without its audit row does
// not compile (and is refused at run time too). Patient-scoped reads and changes take a `PatientScope`, which
// only the access module's grant check makes (modules/access/patient-scope.ts).
import type { AuditEntry } from '../audit/audit-writer';
import { auditActorOf, auditAppendOf, writeAudit } from '../audit/audit-writer';
import type { Config } from '../config';
import type { Db, DbOrTx } from '../db/client';
import { pipelinedTransaction, type IsolationLevel } from '../db/pipelined-transaction';
import type { StatementLimit } from '../http/rate-limit';
import type { Actor, ActorCheck, RequestMeta, StaffActor } from './actor';

/** The volume rules a request's work is checked against (decision 011): bulk-search alerts, grant volume and ceiling. */
export type RequestRules = Pick<Config, 'alerts' | 'breakGlassPerHour'>;

/**
 * What the request is checked against besides the route's guard (decision 059), built by the request context
 * (request.gatedScope): a hot statement runs its work only when its gate (context/statement-gate) passes.
 */
export interface RequestGate {
  /** The actor came from the worker's cache: the statement that does the work must confirm it (decision 028). */
  readonly check: ActorCheck | null;
  /** The request's rate limit, counted by the statement that does the work (or one of its own first); null: none. */
  readonly limit: StatementLimit | null;
  readonly rules: RequestRules;
}

/** What a route hands to a service: who asks, from where, when, and the database to open a context on. */
export interface RequestScope<A extends Actor = Actor> {
  db: Db;
  actor: A;
  meta: RequestMeta;
  now: Date;
  /** The request's gate (decision 059); absent: no cached actor to confirm, no limit. */
  gate?: RequestGate | undefined;
}

/** A scope with its gate: what the hot services (search, record open, grant) take, from request.gatedScope. */
export type GatedScope<A extends Actor = StaffActor> = RequestScope<A> & { readonly gate: RequestGate };

/** An audit row as a unit of work states it: the actor and request meta come from the context. */
export type ContextAuditEntry = Omit<AuditEntry, 'actor' | 'meta'>;

declare const auditedBrand: unique symbol;
/** A result whose audit rows are recorded; only DataContext#audited makes one. */
export interface Audited<T> {
  readonly value: T;
  readonly [auditedBrand]: true;
}

export interface DataContext<A extends Actor = Actor> {
  readonly actor: A;
  readonly meta: RequestMeta;
  readonly now: Date;
  /** The cached actor the first grant check in this transaction confirms (the scope's gate, decision 028), or null. */
  readonly check: ActorCheck | null;
  /** The transaction: for repositories only. */
  readonly tx: DbOrTx;
  /** Marks `value` as the audited result of this unit of work; the rows are written just before commit. */
  audited<T>(value: T, ...entries: [ContextAuditEntry, ...ContextAuditEntry[]]): Audited<T>;
}

export const UNAUDITED_TRANSACTION = 'a unit of work ended without its audit row';

interface Options {
  isolationLevel?: IsolationLevel;
}

/**
 * Runs `work` in one transaction with a data context, writes the audit rows it recorded (late, as the audit writer
 * asks: a chain's other writers wait from there until commit) and commits; a throw anywhere rolls all of it back. On
 * PostgreSQL the BEGIN goes out with the work's first statement and the last audit row with the COMMIT
 * (db/pipelined-transaction.ts): two round trips fewer than the statements it runs.
 */
export async function inAuditedTransaction<A extends Actor, T>(
  scope: RequestScope<A>,
  work: (ctx: DataContext<A>) => Promise<Audited<T>>,
  options: Options = {},
): Promise<T> {
  return pipelinedTransaction(
    scope.db,
    async (tx) => {
      const recorded: ContextAuditEntry[] = [];
      const issued = new WeakSet<object>();
      const ctx: DataContext<A> = {
        actor: scope.actor,
        meta: scope.meta,
        now: scope.now,
        check: scope.gate?.check ?? null,
        tx,
        audited<V>(value: V, ...entries: ContextAuditEntry[]): Audited<V> {
          recorded.push(...entries);
          const result = { value } as Audited<V>;
          issued.add(result);
          return result;
        },
      };
      const result = await work(ctx);
      // Types make this unreachable; a cast could still get here, so the transaction is refused rather than committed.
      if (!issued.has(result) || recorded.length === 0) throw new Error(UNAUDITED_TRANSACTION);
      const actor = auditActorOf(scope.actor);
      const entries = recorded.map((entry) => ({ ...entry, actor, meta: scope.meta }));
      const last = entries.pop()!;
      for (const entry of entries) await writeAudit(tx, entry);
      return { value: result.value, last: auditAppendOf(last) };
    },
    options.isolationLevel,
  );
}
