// The request context (DESIGN.md §4, STYLE habit 3): on every request, `request.meta` (who asked, from where) and
// `request.actor` (the signed-in staff user with permissions read from the database now, or the patient, or null).
// On routes marked `config.actorInStatement` the actor (staff or patient) may come from this worker's cache instead, with
// `request.actorCheck` for the route's one statement to confirm it (decision 028). `request.gatedScope(limit)` is what a
// hot route hands its service (decision 059): the scope with its gate (that confirmation, the route's rate limit and
// the volume rules). Register after @fastify/cookie and before the module routes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps';
import type { Db } from '../db/client';
import { staffLimit, type RateLimitName } from '../http/rate-limit';
import type { Actor, PatientActor, RequestMeta, StaffActor } from './actor';
import type { GatedScope } from './data-context';
import { patientActor, staffActor } from './guards';
import { isCdsHooksUrl, isFhirUrl } from '../errors/operation-outcome';
import { loadStaffActor } from './actor.repository';
import { ActorCache } from './actor-cache';
import { bearerCredential, clientActorFor } from './client-token';
import { destroySession, hashToken, loadSession, purgeExpiredSessions, sessionToken } from './session';

const USER_AGENT_MAX = 512;
/** The API and the FHIR API (/fhir/R4, issue 14): the URLs that carry personal data and need the actor. */
export const isApiUrl = (url: string): boolean => url.startsWith('/api/') || url.startsWith('/fhir/') || isCdsHooksUrl(url);

/** How often each app instance deletes expired session rows. */
export const SESSION_PURGE_INTERVAL_MS = 10 * 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's cache of staff actors (decision 028). */
    actorCache: ActorCache;
  }
  interface FastifyRequest {
    /**
     * The signed-in staff user's scope with its gate (decision 059), as of now: the cached actor to confirm (when it
     * came from the cache), the rate limit `limit` of this user (a system client's own maximum when set, decision
     * 050) and the volume rules. 401 when the request has no staff actor.
     */
    gatedScope(limit?: RateLimitName | null): GatedScope<StaffActor>;
    /** The signed-in patient's scope with its gate: the cached session to confirm (when it came from the cache). 401 otherwise. */
    portalScope(): GatedScope<PatientActor>;
  }
}

/** A system client's own maximum for `limit`, when an administrator set one (decision 050). */
const clientMax = (actor: StaffActor, limit: RateLimitName): number | null | undefined =>
  limit === 'search' ? actor.client?.limits?.search : limit === 'accessGrant' ? actor.client?.limits?.accessGrant : undefined;

/** The staff actor of a user as of now (what the request context builds), or null when not active. */
export const staffActorFor = (db: Db, userId: string): Promise<StaffActor | null> => loadStaffActor(db, userId);

export function registerRequestContext(app: FastifyInstance, deps: AppDeps): void {
  const { db, config } = deps;
  // The staff actors of the sessions this worker served: the hot routes confirm them in their own statement.
  const cache = new ActorCache();
  app.decorate('actorCache', cache);
  app.decorateRequest('actor', null);
  app.decorateRequest('actorCheck', null);
  app.decorateRequest('meta', null as unknown as RequestMeta);

  /** request.actor from the session cookie: from the cache when `cached` allows and it has the session, else read now. */
  async function resolveSessionActor(request: FastifyRequest, cached: boolean): Promise<void> {
    const token = sessionToken(request);
    if (!token) return;
    const sid = hashToken(token);
    const hit = cached ? cache.get(sid) : undefined;
    if (hit) {
      request.actor = hit.actor;
      request.actorCheck = { sid, fingerprint: hit.fingerprint, now: config.now() };
      request.meta.sessionHash = sid;
      return;
    }
    // One round trip: the session, its user, role and permissions (issue 11).
    const loaded = await loadSession(db, sid, config.now());
    if (!loaded) return cache.delete(sid);
    const { session } = loaded;
    let actor: Actor | null;
    if (session.subject.kind === 'staff') {
      actor = loaded.staff;
      // Deactivated, unapproved or deleted since sign-in: the session ends here, and stays ended if reactivated.
      if (!actor) {
        cache.delete(sid);
        return destroySession(db, session.sid);
      }
    } else {
      actor = { kind: 'patient', patientId: session.subject.patientId };
    }
    cache.set(sid, { actor, fingerprint: loaded.fingerprint });
    request.actor = actor;
    request.meta.sessionHash = session.sid;
  }

  app.decorateRequest('gatedScope', function (this: FastifyRequest, limit?: RateLimitName | null): GatedScope<StaffActor> {
    const actor = staffActor(this);
    const now = config.now();
    return {
      db,
      actor,
      meta: this.meta,
      now,
      gate: {
        check: this.actorCheck,
        limit: limit ? staffLimit(config, limit, actor.userId, now, clientMax(actor, limit)) : null,
        rules: { alerts: config.alerts, breakGlassPerHour: config.breakGlassPerHour },
      },
    };
  });

  app.decorateRequest('portalScope', function (this: FastifyRequest): GatedScope<PatientActor> {
    return {
      db,
      actor: patientActor(this),
      meta: this.meta,
      now: config.now(),
      gate: { check: this.actorCheck, limit: null, rules: { alerts: config.alerts, breakGlassPerHour: config.breakGlassPerHour } },
    };
  });

  app.decorateRequest('refreshActor', async function (this: FastifyRequest): Promise<void> {
    if (this.actorCheck) cache.delete(this.actorCheck.sid);
    this.actor = null;
    this.actorCheck = null;
    this.meta.sessionHash = null;
    await resolveSessionActor(this, false);
  });

  app.addHook('onRequest', async (request) => {
    const userAgent = request.headers['user-agent'];
    request.meta = { ip: request.ip, userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null, sessionHash: null };
    request.actor = null;
    request.actorCheck = null;
    // Only the API (and the FHIR API) needs to know who asks; static files and signed-out requests cost no query.
    if (!isApiUrl(request.url)) return;
    // ---- System clients (decision 020): a bearer token, on /fhir/ and /cds-services (decision 045) only. ----
    // When the header is there it alone decides (a session cookie beside it is not read); a bad token is a 401
    // OperationOutcome. Under /api/ the header is never read: a token cannot open the staff API.
    if (isFhirUrl(request.url) || isCdsHooksUrl(request.url)) {
      const bearer = bearerCredential(request);
      if (bearer !== undefined) {
        request.actor = await clientActorFor(deps, bearer, request.ip);
        return;
      }
    }
    // ---- end of system clients ----
    // Routes whose one statement confirms the actor itself (decision 028) may take it from the cache.
    await resolveSessionActor(request, request.routeOptions.config.actorInStatement === true);
  });

  // API answers carry personal data: no browser or proxy keeps a copy (shared ward computers, the back button).
  app.addHook('onSend', async (request, reply) => {
    if (isApiUrl(request.url) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  // Expired rows are ignored on read; this deletes them. Every instance may run it: the DELETE is idempotent.
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const purge = (): void => {
    running = purgeExpiredSessions(db, config.now()).catch((err: unknown) => app.log.warn({ err }, 'session purge failed'));
  };
  app.addHook('onReady', async () => {
    purge();
    timer = setInterval(purge, SESSION_PURGE_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
