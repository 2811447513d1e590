// npm run audit:digest: writes a checkpoint and a signed digest file now (the server writes one every
// AUDIT_DIGEST_HOURS by itself), sends it to AUDIT_DIGEST_COPY_DIR / AUDIT_DIGEST_URL when set (exit 1 when a
// configured place did not take it), and prints the path. Otherwise copy the file off the server yourself; later
// `npm run audit:verify -- --digest FILE` (or --digest-dir DIR) checks its signature and compares the chains with it.
// With the embedded database, stop the app first: PGlite allows one process per data directory.
import { loadSigningKey } from '../src/server/audit/audit-digest';
import { writeDigestAndSendOff } from '../src/server/audit/audit-digest-copy';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';

const config = loadConfig();
const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
try {
  const sent = await writeDigestAndSendOff(handle.db, await loadSigningKey(config.auditSigningKey), config);
  console.log(`Audit digest written: ${sent.file}`);
  if (sent.copied) console.log(`Copied to: ${sent.copied}`);
  if (sent.posted !== undefined) console.log(`Sent to AUDIT_DIGEST_URL: HTTP ${sent.posted}`);
  if (sent.copied === undefined && sent.posted === undefined)
    console.log('Copy it off the server (or set AUDIT_DIGEST_COPY_DIR / AUDIT_DIGEST_URL to have it sent).');
} catch (error) {
  console.error(`audit:digest: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await handle.close();
}
