// The restore drill (issue 28 item 3, decision 056): a PostgreSQL server archiving its WAL with pgBackRest, the
// server as `npm start` runs it writing audited record adds, "last night's" full backup, a signed audit digest, more
// adds up to a chosen time T, then adds after T. pgBackRest restores the backup plus WAL to T on a scratch server;
// the drill checks the restored database has exactly the rows written up to T (none after), that
// `npm run audit:verify` passes there, and that it agrees with the signed digest. Prints the restore time.
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../src/server/db/client';
import { createPatient } from '../../src/server/test/patient-fixtures';
import { createStaffUser } from '../../src/server/test/staff';
import { benchClient, grantAccess, type BenchClient } from '../../bench/record-bench-kit';
import { signInOverHttp, startServerProcess } from '../../bench/search/server-process';
import { prepareDir, runAsPostgres, sleep } from '../ops/postgres-user';
import { ScratchServer } from './scratch-server';

export interface RestoreDrillOptions {
  dir: string;
  /** The original server's port and the restored one's. */
  ports: [number, number];
  log?: (line: string) => void;
}

export interface RestoreDrillResult {
  /** Adds before the backup, between the backup and T, and after T. */
  written: { beforeBackup: number; beforeTarget: number; afterTarget: number };
  target: string;
  restoredRows: number;
  expectedRows: number;
  auditRowsAtTarget: number;
  restoredAuditRows: number;
  backupSeconds: number;
  restoreSeconds: number;
  auditVerify: string;
  digestVerify: string;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const STANZA = 'nhr';

/** pgBackRest's configuration for the drill: its repository, logs and locks in the drill's folder. */
function writePgbackrestConfig(dir: string, server: ScratchServer): string {
  const file = path.join(dir, 'pgbackrest.conf');
  writeFileSync(
    file,
    [
      '[global]',
      `repo1-path=${path.join(dir, 'repo')}`,
      'repo1-retention-full=2',
      'start-fast=y',
      'log-level-console=warn',
      'log-level-file=info',
      `log-path=${path.join(dir, 'log')}`,
      `lock-path=${path.join(dir, 'lock')}`,
      `spool-path=${path.join(dir, 'spool')}`,
      '',
      `[${STANZA}]`,
      `pg1-path=${server.pgdata}`,
      `pg1-port=${server.port}`,
      `pg1-socket-path=${server.socketDir}`,
      '',
    ].join('\n'),
  );
  return file;
}

async function addRecords(client: BenchClient, patients: number[], n: number, label: string): Promise<void> {
  for (let i = 0; i < n; i++) {
    const body = {
      condition: 'Restore drill entry',
      status: 'Active',
      diagnosedDate: '2026-11-01',
      resolvedDate: '',
      description: `${label} ${randomUUID()}`,
      doctor: 'Dr. Drill',
      facility: 'Drill Clinic',
    };
    const res = await client.request('POST', `/api/patients/${patients[i % patients.length]!}/diagnoses`, {
      body,
      headers: { 'idempotency-key': randomUUID() },
    });
    if (res.status !== 201) throw new Error(`an add answered ${res.status}: ${res.text.slice(0, 300)}`);
  }
}

function npmScript(script: string, args: string[], env: NodeJS.ProcessEnv): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 300_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export async function runRestoreDrill(options: RestoreDrillOptions): Promise<RestoreDrillResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const dir = options.dir;
  prepareDir(dir);
  const socketDir = path.join(dir, 's');
  const original = new ScratchServer(path.join(dir, 'original'), options.ports[0], socketDir);
  const restored = new ScratchServer(path.join(dir, 'restored'), options.ports[1], socketDir);
  const config = writePgbackrestConfig(dir, original);
  const backrest = (args: string[], what: string): string =>
    runAsPostgres(['pgbackrest', `--config=${config}`, `--stanza=${STANZA}`, ...args], what);
  const appDir = path.join(dir, 'app');
  const digestDir = path.join(dir, 'digests');
  const appEnv = { DATA_DIR: appDir, AUDIT_PAYLOAD_KEY: randomBytes(32).toString('base64'), AUDIT_DIGEST_COPY_DIR: digestDir };
  let stopServer: (() => Promise<void>) | undefined;
  try {
    original.init({
      wal_level: 'replica',
      archive_mode: 'on',
      archive_command: `pgbackrest --config=${config} --stanza=${STANZA} archive-push %p`,
      max_wal_senders: '3',
    });
    prepareDir(dir); // pgBackRest's folders and the configuration, the postgres user's
    original.start();
    await original.query('CREATE DATABASE nhr');
    backrest(['stanza-create'], 'stanza-create');
    backrest(['check'], 'check');

    const url = original.url('nhr');
    const handle = await openDatabase({ databaseUrl: url, poolSize: 2 });
    await handle.migrate();
    const doctor = await createStaffUser(handle.db, { roleId: 3 });
    const patients: number[] = [];
    for (let i = 0; i < 8; i++) patients.push((await createPatient(handle.db, { lastName: 'Restore' })).id);
    await handle.close();
    const server = await startServerProcess(url, 1, appEnv);
    stopServer = server.stop;
    const client = benchClient(`http://127.0.0.1:${server.port}`, await signInOverHttp(server.port, doctor.email, doctor.password), 4);
    await grantAccess(client, patients, doctor.password);

    const written = { beforeBackup: 200, beforeTarget: 150, afterTarget: 100 };
    await addRecords(client, patients, written.beforeBackup, 'before the backup');
    let t = performance.now();
    backrest(['backup', '--type=full'], 'backup');
    const backupSeconds = (performance.now() - t) / 1000;
    log(`full backup in ${backupSeconds.toFixed(1)} s`);

    await addRecords(client, patients, written.beforeTarget, 'before the target');
    const digest = npmScript('scripts/audit-digest.ts', [], { ...appEnv, DATABASE_URL: url });
    if (digest.status !== 0) throw new Error(`audit:digest failed:\n${digest.stdout}\n${digest.stderr}`);
    const [atTarget] = await original.query<{ t: string; rows: number; audit: number }>(
      "SELECT clock_timestamp()::text AS t, (SELECT count(*)::int FROM diagnoses WHERE description LIKE 'before %') AS rows, (SELECT count(*)::int FROM audit_logs) AS audit",
      'nhr',
    );
    const target = atTarget!.t;
    await sleep(1_100);
    await addRecords(client, patients, written.afterTarget, 'after the target');
    client.close();
    await stopServer();
    stopServer = undefined;
    // The WAL with the last commits goes to the repository now, not when the segment fills.
    await original.query('SELECT pg_switch_wal()', 'nhr');
    backrest(['check'], 'check after the last writes');
    original.stop();

    t = performance.now();
    backrest(
      ['restore', `--pg1-path=${restored.pgdata}`, '--type=time', `--target=${target}`, '--target-action=promote', '--archive-mode=off'],
      'restore',
    );
    restored.start();
    await restored.waitForPrimary();
    const restoreSeconds = (performance.now() - t) / 1000;
    log(`restored to ${target} in ${restoreSeconds.toFixed(1)} s`);

    const [counts] = await restored.query<{ rows: number; after: number; audit: number }>(
      "SELECT count(*) FILTER (WHERE description LIKE 'before %')::int AS rows, count(*) FILTER (WHERE description LIKE 'after %')::int AS after, (SELECT count(*)::int FROM audit_logs) AS audit FROM diagnoses",
      'nhr',
    );
    if (counts!.after !== 0) throw new Error(`${counts!.after} rows written after the target were restored`);

    // First against the restored database's own checkpoints, then against the signed digest copied off the server.
    const verifyEnv = {
      DATA_DIR: appDir,
      AUDIT_PAYLOAD_KEY: appEnv.AUDIT_PAYLOAD_KEY,
      AUDIT_DIGEST_COPY_DIR: '',
      DATABASE_URL: restored.url('nhr'),
    };
    const verify = npmScript('scripts/audit-verify.ts', [], verifyEnv);
    const auditVerify = /^OK: .*$/m.exec(verify.stdout)?.[0];
    if (verify.status !== 0 || !auditVerify)
      throw new Error(`audit:verify on the restored database failed:\n${verify.stdout}\n${verify.stderr}`);
    const withDigest = npmScript('scripts/audit-verify.ts', ['--digest-dir', digestDir], verifyEnv);
    const digestVerify = /^OK: .*$/m.exec(withDigest.stdout)?.[0];
    if (withDigest.status !== 0 || !digestVerify)
      throw new Error(`audit:verify --digest-dir on the restored database failed:\n${withDigest.stdout}\n${withDigest.stderr}`);
    restored.stop();

    return {
      written,
      target,
      restoredRows: counts!.rows,
      expectedRows: atTarget!.rows,
      auditRowsAtTarget: atTarget!.audit,
      restoredAuditRows: counts!.audit,
      backupSeconds,
      restoreSeconds,
      auditVerify,
      digestVerify,
    };
  } finally {
    if (stopServer) await stopServer().catch(() => undefined);
    for (const s of [original, restored]) {
      try {
        s.stop();
      } catch {
        // already stopped
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
