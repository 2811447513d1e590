import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { zodRoutes, type AppDeps } from '../../deps';
import { medicineChecksStatus } from '../../../contracts/medicine-checks';
import { medicineChecksStatusNow } from '../medicine-checks/medicine-knowledge';
import { pingDatabase } from './health.repository';

// `status` is about serving (the database); `medicineChecks` says whether the knowledge loaded at start (decision 043),
// so a monitor sees a broken knowledge file while the records stay usable.
const healthResponse = z.object({ status: z.enum(['ok', 'unavailable']), database: z.boolean(), medicineChecks: medicineChecksStatus });

export function healthRoutes({ db }: AppDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    zodRoutes(app).get(
      '/api/health',
      { schema: { tags: ['health'], response: { 200: healthResponse, 503: healthResponse } } },
      async (_request, reply) => {
        const database = await pingDatabase(db);
        return reply
          .status(database ? 200 : 503)
          .send({ status: database ? 'ok' : 'unavailable', database, medicineChecks: medicineChecksStatusNow() });
      },
    );
  };
}
