// `npm run db:migrate`: applies the committed migrations to DATABASE_URL (or the embedded database in DATA_DIR)
// and exits; for deployments that start the app with MIGRATE=false.
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';

const config = loadConfig();
const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await handle.migrate();
  console.log(`Migrations applied (${handle.kind}).`);
} finally {
  await handle.close();
}
