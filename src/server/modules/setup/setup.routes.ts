// First-time setup (SPEC §7 Session and setup).
import type { FastifyInstance } from 'fastify';
import { setupAdminInput, setupAdminResult, setupStatus } from '../../../contracts/setup';
import { zodRoutes, type AppDeps } from '../../deps';
import { needsSetup, setupFirstAdmin } from './setup.service';

export function setupRoutes({ db }: AppDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    r.get('/api/setup/status', { schema: { tags: ['setup'], response: { 200: setupStatus } } }, async () => ({
      needsSetup: await needsSetup(db),
    }));
    r.post(
      '/api/setup/admin',
      { schema: { tags: ['setup'], body: setupAdminInput, response: { 201: setupAdminResult } } },
      async (request, reply) => reply.status(201).send(await setupFirstAdmin(db, request.body, request.ip)),
    );
  };
}
