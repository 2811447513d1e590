import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Db } from './db/client';
import type { ReadDb } from './db/read-db';

/** What every module's routes are built with. */
export interface AppDeps {
  db: Db;
  /**
   * For the reads that may run on the standby (decision 058): reports, the audit screen's searches, the defaulter
   * list, the duplicate scan. Their audit rows and every write stay on `db`.
   */
  readDb: ReadDb;
  config: Config;
}

/** The app with zod schemas as the type provider: request bodies and replies are typed from the contracts. */
export const zodRoutes = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();
