// The hot routes' actor (decision 028): a staff actor from the worker's cache is confirmed by the one statement that
// does the request's work, instead of being read in a statement of its own first.
//
//   async (request, reply) => withConfirmedActor(request, reply, 'patients.search', (actor, check) =>
//     searchRecorded(db, request.body, actor, request.meta, ..., check));
//
// `run` gets `check` when the actor came from the cache: its statement must start with actorCheckSql(check), do
// nothing unless `actor_ok`, and throw UnconfirmedActorError when it was not (or when the path cannot confirm an
// actor in its statement at all). Then the actor is read anew, the route's guard is applied to it again (a revoked
// permission is a 403, an ended session a 401), and `run` is called once more without a check.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Permission } from '../../contracts/constants';
import type { ActorCheck, StaffActor } from './actor';
import { requireStaff, staffActor } from './guards';

/** The cached actor was not confirmed: the statement found it changed (or the path cannot confirm it). */
export class UnconfirmedActorError extends Error {
  constructor() {
    super('the cached actor was not confirmed by the statement');
    this.name = 'UnconfirmedActorError';
  }
}

export async function withConfirmedActor<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  permission: Permission,
  run: (actor: StaffActor, check: ActorCheck | undefined) => Promise<T>,
): Promise<T> {
  const check = request.actorCheck;
  if (check) {
    try {
      return await run(staffActor(request), check);
    } catch (error) {
      if (!(error instanceof UnconfirmedActorError)) throw error;
    }
    await request.refreshActor();
    await requireStaff(permission)(request, reply);
  }
  return run(staffActor(request), undefined);
}
