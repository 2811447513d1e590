// Administration: Manage Users (SPEC §7 Administration) and My Profile (PATCH /api/users/{id}).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser, messageResult } from '../../../contracts/auth';
import {
  activeUsers as activeUsersSchema,
  activeUsersQuery,
  approveResult,
  nameChangeIdParams,
  nameChanges,
  pendingUsers as pendingUsersSchema,
  profileUpdateInput,
  userIdParams,
  userStats as userStatsSchema,
} from '../../../contracts/users';
import { requireStaff, staffActor, staffScope } from '../../context/guards';
import { decideOwnNameChange, pendingNameChanges } from './name-changes.service';
import { zodRoutes, type AppDeps } from '../../deps';
import { activeUsers, approveUser, ownProfileOnly, pendingUsers, rejectUser, updateOwnProfile, userStats } from './users.service';

/** Refuses another user's id before the body is read (DESIGN.md §4: own profile only). */
async function ownIdOnly(request: FastifyRequest): Promise<void> {
  const { id } = request.params as { id?: string };
  if (id !== staffActor(request).userId) throw ownProfileOnly();
}

export function usersRoutes(deps: AppDeps) {
  const { db, config } = deps;
  const scope = (request: FastifyRequest) => staffScope(request, db, config.now);
  const canApprove = requireStaff('users.approve');
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['users'];

    r.get('/api/admin/pending-users', { onRequest: canApprove, schema: { tags, response: { 200: pendingUsersSchema } } }, async () =>
      pendingUsers(db),
    );

    r.get(
      '/api/admin/active-users',
      { onRequest: canApprove, schema: { tags, querystring: activeUsersQuery, response: { 200: activeUsersSchema } } },
      async (request) => activeUsers(db, request.query.limit, request.query.offset),
    );

    r.get('/api/admin/user-stats', { onRequest: canApprove, schema: { tags, response: { 200: userStatsSchema } } }, async () =>
      userStats(db),
    );

    r.post(
      '/api/admin/users/:id/approve',
      { onRequest: canApprove, schema: { tags, params: userIdParams, response: { 200: approveResult } } },
      async (request) => ({
        message: 'User approved',
        user: await approveUser(scope(request), request.params.id),
      }),
    );

    r.delete(
      '/api/admin/users/:id/reject',
      { onRequest: canApprove, schema: { tags, params: userIdParams, response: { 200: messageResult } } },
      async (request) => {
        await rejectUser(scope(request), request.params.id);
        return { message: 'User rejected' };
      },
    );

    // A staff member's own change of name waits here for an administrator (issue 21 item 10).
    r.get('/api/admin/name-changes', { onRequest: canApprove, schema: { tags, response: { 200: nameChanges } } }, async (request) =>
      pendingNameChanges(scope(request)),
    );

    for (const [action, decision] of [
      ['approve', 'approved'],
      ['reject', 'rejected'],
    ] as const) {
      r.post(
        `/api/admin/name-changes/:id/${action}`,
        { onRequest: canApprove, schema: { tags, params: nameChangeIdParams, response: { 200: messageResult } } },
        async (request) => {
          await decideOwnNameChange(scope(request), request.params.id, decision);
          return { message: decision === 'approved' ? 'Name change approved' : 'Name change rejected' };
        },
      );
    }

    r.patch(
      '/api/users/:id',
      {
        onRequest: [requireStaff(), ownIdOnly],
        schema: { tags, params: userIdParams, body: profileUpdateInput, response: { 200: currentUser } },
      },
      async (request) => updateOwnProfile(scope(request), request.params.id, request.body),
    );
  };
}
