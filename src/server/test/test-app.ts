// The real app on a real database, for API tests through `inject`.
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
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

// One audit payload key per test process: every app a test file builds reads the payloads the others wrote (the key is
// process-wide, decision 042), and no key file is written into the working tree.
const AUDIT_PAYLOAD_KEY = { value: randomBytes(32).toString('base64'), file: '', name: 'AUDIT_PAYLOAD_KEY' };

export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({});
  // Tests make many requests as one user; a test of a limit sets its own (src/server/http/rate-limit.test.ts).
  const generous = { max: 100_000, windowMs: 60_000 };
  const rateLimits = {
    registration: generous,
    search: generous,
    accessGrant: generous,
    report: generous,
    badToken: generous,
    badTokenAddress: generous,
    passkeyChallenge: generous,
    portalCode: generous,
  };
  // A key of this test's own, never a file in the working tree.
  const mfaSecretKey = { value: randomBytes(32).toString('base64'), file: '' };
  // Failed patient sign-ins across numbers (decision 032): a test of those limits sets its own (portal-sign-in-spray.test.ts).
  const portalSignIn = { failuresPerIp: 100_000, failuresPerMinute: 100_000 };
  return { ...base, clientDir: '/nonexistent', rateLimits, mfaSecretKey, auditPayloadKey: AUDIT_PAYLOAD_KEY, portalSignIn, ...overrides };
}

/**
 * The app on a database of its own. `beforeReady` runs before the app is ready, with the TestApp: a test adds routes
 * of its own there (e.g. probes behind a guard under test).
 */
export async function createTestApp(overrides: Partial<Config> = {}, beforeReady?: (t: TestApp) => void): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = testConfig(overrides);
  const app = await buildApp({ db: database.handle.db, config });
  const t: TestApp = {
    app,
    db: database.handle.db,
    database,
    config,
    async close() {
      await app.close();
      await database.dispose();
    },
  };
  beforeReady?.(t);
  await app.ready();
  return t;
}
