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
  return { ...loadConfig({}), clientDir: '/nonexistent', ...overrides };
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
