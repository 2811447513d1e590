import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Db } from './db/client';

/** What every module's routes are built with. */
export interface AppDeps {
  db: Db;
  config: Config;
}

/** The app with zod schemas as the type provider: request bodies and replies are typed from the contracts. */
export const zodRoutes = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();
