import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { zodRoutes, type AppDeps } from '../../deps';
import { pingDatabase } from './health.repository';

const healthResponse = z.object({ status: z.enum(['ok', 'unavailable']), database: z.boolean() });

export function healthRoutes({ db }: AppDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    zodRoutes(app).get(
      '/api/health',
      { schema: { tags: ['health'], response: { 200: healthResponse, 503: healthResponse } } },
      async (_request, reply) => {
        const database = await pingDatabase(db);
        return reply.status(database ? 200 : 503).send({ status: database ? 'ok' : 'unavailable', database });
      },
    );
  };
}
