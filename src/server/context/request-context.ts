// The request context (DESIGN.md §4, STYLE habit 3): on every request, `request.meta` (who asked, from where) and
// `request.actor` (the signed-in staff user with permissions read from the database now, or the patient, or null).
// Register after @fastify/cookie and before the module routes.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps';
import type { Db } from '../db/client';
import type { Actor, RequestMeta, StaffActor } from './actor';
import { isFhirUrl } from '../errors/operation-outcome';
import { loadStaffActor } from './actor.repository';
import { bearerCredential, clientActorFor } from './client-token';
import { destroySession, hashToken, loadSession, purgeExpiredSessions, sessionToken } from './session';

const USER_AGENT_MAX = 512;
/** The API and the FHIR API (/fhir/R4, issue 14): the URLs that carry personal data and need the actor. */
export const isApiUrl = (url: string): boolean => url.startsWith('/api/') || url.startsWith('/fhir/');

/** How often each app instance deletes expired session rows. */
export const SESSION_PURGE_INTERVAL_MS = 10 * 60_000;

/** The staff actor of a user as of now (what the request context builds), or null when not active. */
export const staffActorFor = (db: Db, userId: string): Promise<StaffActor | null> => loadStaffActor(db, userId);

export function registerRequestContext(app: FastifyInstance, deps: AppDeps): void {
  const { db, config } = deps;
  app.decorateRequest('actor', null);
  app.decorateRequest('meta', null as unknown as RequestMeta);

  app.addHook('onRequest', async (request) => {
    const userAgent = request.headers['user-agent'];
    request.meta = { ip: request.ip, userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null, sessionHash: null };
    request.actor = null;
    // Only the API (and the FHIR API) needs to know who asks; static files and signed-out requests cost no query.
    if (!isApiUrl(request.url)) return;
    // ---- System clients (decision 020): a bearer token, on /fhir/ only. ----
    // When the header is there it alone decides (a session cookie beside it is not read); a bad token is a 401
    // OperationOutcome. Under /api/ the header is never read: a token cannot open the staff API.
    if (isFhirUrl(request.url)) {
      const bearer = bearerCredential(request);
      if (bearer !== undefined) {
        request.actor = await clientActorFor(deps, bearer, request.ip);
        return;
      }
    }
    // ---- end of system clients ----
    const token = sessionToken(request);
    if (!token) return;
    // One round trip: the session, its user, role and permissions (issue 11).
    const loaded = await loadSession(db, hashToken(token), config.now());
    if (!loaded) return;
    const { session } = loaded;
    let actor: Actor | null;
    if (session.subject.kind === 'staff') {
      actor = loaded.staff;
      // Deactivated, unapproved or deleted since sign-in: the session ends here, and stays ended if reactivated.
      if (!actor) return destroySession(db, session.sid);
    } else {
      actor = { kind: 'patient', patientId: session.subject.patientId };
    }
    request.actor = actor;
    request.meta.sessionHash = session.sid;
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
