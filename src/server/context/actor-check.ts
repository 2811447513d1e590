// The hot routes' actor (decisions 028 and 059): a staff actor from the worker's cache is confirmed by the one statement
// that does the request's work, instead of being read in a statement of its own first. The confirmation travels on
// the request scope's gate (request.gatedScope); services never see it, nor this retry:
//
//   async (request, reply) => withConfirmedActor(request, reply, 'patients.search', (scope) => searchRecorded(scope, request.body), 'search');
//
// When the scope's statement could not confirm the cached actor it throws UnconfirmedActorError (statement-gate's
// inGatedStatement). Then the actor is read anew, the route's guard is applied to it again (a revoked permission is
// a 403, an ended session a 401), and `work` runs once more on a scope without a cached actor to confirm.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Permission } from '../../contracts/constants';
import type { RateLimitName } from '../http/rate-limit';
import type { GatedScope } from './data-context';
import type { PatientActor } from './actor';
import { requirePortalPatient, requireStaff, type Guard } from './guards';

/** The cached actor was not confirmed: the statement found it changed (or the path cannot confirm it). */
export class UnconfirmedActorError extends Error {
  constructor() {
    super('the cached actor was not confirmed by the statement');
    this.name = 'UnconfirmedActorError';
  }
}

/** Runs `work` on the request's gated scope (with the rate limit `limit` when given), retrying once as above. */
export function withConfirmedActor<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  permission: Permission,
  work: (scope: GatedScope) => Promise<T>,
  limit?: RateLimitName,
): Promise<T> {
  return confirmedOnce(request, reply, requireStaff(permission), () => work(request.gatedScope(limit)));
}

/** The same for the patient portal's hot read: `work` on the signed-in patient's gated scope (request.portalScope). */
export function withConfirmedPatient<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  work: (scope: GatedScope<PatientActor>) => Promise<T>,
): Promise<T> {
  return confirmedOnce(request, reply, requirePortalPatient(), () => work(request.portalScope()));
}

/** `run` once on the cached actor; when its statement could not confirm it, the actor read anew, `guard` again, and `run` again. */
async function confirmedOnce<T>(request: FastifyRequest, reply: FastifyReply, guard: Guard, run: () => Promise<T>): Promise<T> {
  if (request.actorCheck) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof UnconfirmedActorError)) throw error;
    }
    await request.refreshActor();
    await guard(request, reply);
  }
  return run();
}
