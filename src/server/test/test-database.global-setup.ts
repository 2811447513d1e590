// Vitest global setup: migrates one database per test run, which every test file then copies
// (`createTestDatabase`) instead of migrating its own. See docs/decisions/010-test-databases.md.
import { createMigratedPgliteSnapshot, createMigratedTemplate } from '../db/scratch-database';
import { PGLITE_SNAPSHOT_ENV, TEMPLATE_DATABASE_ENV } from './test-database';

export default async function setup(): Promise<() => Promise<void>> {
  const serverUrl = process.env.DATABASE_URL;
  // The test workers are started after this and inherit the environment.
  if (serverUrl) {
    const template = await createMigratedTemplate(serverUrl, 'nhr_template');
    process.env[TEMPLATE_DATABASE_ENV] = template.name;
    return async () => {
      delete process.env[TEMPLATE_DATABASE_ENV];
      await template.drop();
    };
  }
  const snapshot = await createMigratedPgliteSnapshot();
  process.env[PGLITE_SNAPSHOT_ENV] = snapshot.file;
  return async () => {
    delete process.env[PGLITE_SNAPSHOT_ENV];
    await snapshot.remove();
  };
}
