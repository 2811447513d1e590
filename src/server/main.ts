// Starts the server: open the database, apply migrations, listen, and shut down cleanly on SIGTERM/SIGINT.
import { buildApp } from './app';
import { loadAllCatalogues } from './modules/codes/codes.service';
import { startAuditDigests } from './audit/audit-digest-schedule';
import { startAuditPartitions } from './audit/audit-partitions';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { DataDirInUseError } from './db/data-dir-lock';
import { openReadPool } from './db/read-db';

const config = loadConfig();
const handle = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  statementTimeoutMs: config.statementTimeoutMs,
}).catch((err: unknown) => {
  if (!(err instanceof DataDirInUseError)) throw err;
  console.error(err.message); // a clear sentence, not a stack trace
  process.exit(1);
});
// MIGRATE=false: the schema is migrated by a deploy step, so the app may run as a role without CREATE rights
// (docs/security/audit-append-only.md).
if (process.env.MIGRATE !== 'false') await handle.migrate();
// Reads that tolerate staleness go to the standby when DATABASE_READ_URL names one (decision 058); PGlite has one database.
const readPool =
  config.databaseReadUrl && handle.kind === 'postgres'
    ? openReadPool(config.databaseReadUrl, { statementTimeoutMs: config.statementTimeoutMs })
    : undefined;
const app = await buildApp({
  db: handle.db,
  readDb: readPool?.db,
  config,
  logger: {
    level: config.logLevel,
    redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
  },
});

let stopDigests = (): void => {};
let stopPartitions = (): void => {};
let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  try {
    stopDigests();
    stopPartitions();
    await app.close(); // stops accepting, lets in-flight requests finish
    await readPool?.close();
    await handle.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

// The code catalogues are indexed before the first request, so the first type-ahead of the day is as quick as the rest.
loadAllCatalogues();
// The audit log's month partitions ahead (decision 057): now, before the first request, then daily.
stopPartitions = await startAuditPartitions(handle.db, app.log);
await app.listen({ port: config.port, host: config.host });
stopDigests = startAuditDigests(handle.db, config, app.log);
app.log.info(`National Health Records on http://localhost:${config.port} (${handle.kind} database)`);
