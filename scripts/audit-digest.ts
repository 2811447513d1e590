// npm run audit:digest: writes a checkpoint and a signed digest file now (the server writes one every
// AUDIT_DIGEST_HOURS by itself) and prints the file's path. Copy the file off the server; later
// `npm run audit:verify -- --digest FILE` checks its signature and compares the chains with it.
// With the embedded database, stop the app first: PGlite allows one process per data directory.
import { loadSigningKey, writeDigestFile } from '../src/server/audit/audit-digest';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';

const config = loadConfig();
const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
try {
  const file = await writeDigestFile(handle.db, await loadSigningKey(config.auditSigningKey), config.dataDir);
  console.log(`Audit digest written: ${file}`);
} finally {
  await handle.close();
}
