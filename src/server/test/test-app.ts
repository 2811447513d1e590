// The real app on a real database, for API tests through `inject`.
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import type { Db } from '../db/client';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({});
  // Tests make many requests as one user; a test of a limit sets its own (src/server/http/rate-limit.test.ts).
  const generous = { max: 100_000, windowMs: 60_000 };
  const rateLimits = { registration: generous, search: generous, accessGrant: generous, report: generous, badToken: generous };
  return { ...base, clientDir: '/nonexistent', rateLimits, ...overrides };
}

export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = testConfig(overrides);
  const app = await buildApp({ db: database.handle.db, config });
  await app.ready();
  return {
    app,
    db: database.handle.db,
    database,
    config,
    async close() {
      await app.close();
      await database.dispose();
    },
  };
}
