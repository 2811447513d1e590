// npm run drill:restore: the restore drill (scripts/backup/restore-drill.ts) on this machine, with PostgreSQL 15 and
// pgBackRest installed (Debian: pgbackrest). Ports: RESTORE_PORTS=original,restored (default 55460,55461); the
// folders go under a new temporary directory and are removed afterwards.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runRestoreDrill } from './backup/restore-drill';
import { backupToolsInstalled } from './backup/tools';

if (!backupToolsInstalled()) {
  console.error('pgbackrest or PostgreSQL 15 is not installed (apt-get install pgbackrest).');
  process.exit(2);
}
const [original, restored] = (process.env.RESTORE_PORTS ?? '55460,55461').split(',').map(Number);
const result = await runRestoreDrill({ dir: mkdtempSync(path.join(tmpdir(), 'nhr-restore-')), ports: [original!, restored!] });
console.log(JSON.stringify(result, null, 2));
const ok = result.restoredRows === result.expectedRows && result.restoredAuditRows === result.auditRowsAtTarget;
console.log(ok ? 'drill passed' : 'DRILL FAILED: the restored database does not hold exactly what was written up to the target');
process.exit(ok ? 0 : 1);
