// The restore drill as a test (issue 28 item 3): a real PostgreSQL server archiving to pgBackRest, a full backup,
// audited writes, a restore to a chosen time on a scratch server, row counts and the audit verifier with the signed
// digest there. Needs Debian's pgbackrest; skipped without it unless DRILLS_REQUIRED=1 (set by .ci/run).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRestoreDrill } from './restore-drill';
import { backupToolsInstalled } from './tools';

const installed = backupToolsInstalled();

describe.runIf(installed || process.env.DRILLS_REQUIRED === '1')('restore drill', () => {
  it('restores the full backup plus WAL to a chosen time: exactly the rows up to it, the audit chain verified and matching the signed digest', async () => {
    expect(installed, 'pgbackrest and PostgreSQL 15 must be installed (apt-get install pgbackrest)').toBe(true);
    const result = await runRestoreDrill({
      dir: mkdtempSync(path.join(tmpdir(), 'nhr-restore-test-')),
      ports: [55470, 55471],
      log: (line) => console.log(`[restore drill] ${line}`),
    });
    console.log(`[restore drill] ${JSON.stringify(result)}`);
    expect(result.expectedRows).toBe(result.written.beforeBackup + result.written.beforeTarget);
    expect(result.restoredRows).toBe(result.expectedRows);
    expect(result.restoredAuditRows).toBe(result.auditRowsAtTarget);
    expect(result.auditVerify).toMatch(/^OK: /);
    expect(result.digestVerify).toMatch(/^OK: .*digest/);
  }, 600_000);
});
