// The failover drill (issue 28 item 2, decision 055): a pg_auto_failover pair (ha-pair.ts), the server as `npm start`
// runs it with DATABASE_URL naming both nodes, and CONNECTIONS clinicians' writes (record adds with an
// Idempotency-Key, each retried with the same key until acknowledged, as the web client does) and searches. Then the
// primary's server is lost (SIGKILL to its keeper and its postmaster): the standby is promoted, the server follows it
// without a restart, every acknowledged add is found once on the new primary, the audit chain verifies there, and
// the old primary rejoins as the standby. Prints the outage and the counts; throws when a guarantee does not hold.
// The server reads its compliance reports off the standby (DATABASE_READ_URL naming both nodes, decision 058): an
// auditor generates one before the kill (read on the standby) and one from the moment of the kill, retried as the
// web client would until it is stored, which must complete while the standby is promoted.
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../../src/server/db/client';
import { createPatient } from '../../src/server/test/patient-fixtures';
import { createStaffUser } from '../../src/server/test/staff';
import { benchClient, grantAccess, type BenchClient } from '../../bench/record-bench-kit';
import { signInOverHttp, startServerProcess } from '../../bench/search/server-process';
import { prepareDir, sleep } from '../ops/postgres-user';
import { HaPair, type PairPorts } from './ha-pair';

export interface DrillOptions {
  dir: string;
  ports: PairPorts;
  /** Concurrent writers (default 16). */
  connections?: number;
  /** Seconds of writes before the primary is lost (default 5). */
  warmupSeconds?: number;
  /** Seconds of writes after they resumed (default 5). */
  afterSeconds?: number;
  log?: (line: string) => void;
}

export interface DrillResult {
  /** From the kill to the first acknowledged write after it. */
  outageSeconds: number;
  acknowledged: number;
  found: number;
  lost: number;
  duplicated: number;
  /** Adds answered with an error and not retried to the end (must be 0: every add is retried until acknowledged). */
  unfinished: number;
  searches: number;
  auditVerify: string;
  rejoinSeconds: number;
  newPrimary: string;
  /** A compliance report generated before the kill, with DATABASE_READ_URL naming both nodes. */
  reportBefore: DrillReport;
  /** The compliance report asked for at the moment of the kill and retried until it was stored. */
  reportDuringFailover: DrillReport;
}

export interface DrillReport {
  id: number;
  /** Requests sent until it was stored (the ones before answered 503 or failed). */
  attempts: number;
  /** The answers before it was stored, by status and code ("no answer": the connection failed). */
  refusals: Record<string, number>;
  /** From the first request to the stored report. */
  seconds: number;
  /** Where its data was read: 'standby', or 'primary' (the promoted standby, or the read pool's fallback). */
  server: string;
  dataAsOf: string | null;
  auditEvents: number;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MARKER = 'failover drill';

interface Writer {
  acknowledged: Map<string, number>;
  searches: number;
  unfinished: number;
}

async function writer(
  client: BenchClient,
  patients: number[],
  idNumbers: string[],
  until: () => boolean,
  onAck: (sentAt: number, answeredAt: number) => void,
): Promise<Writer> {
  const w: Writer = { acknowledged: new Map(), searches: 0, unfinished: 0 };
  let n = 0;
  while (!until()) {
    n++;
    if (n % 4 === 0) {
      // A search now and then (each writes its audit row), answered or not: it is not counted as a write.
      const body = { method: 'id-number', idNumber: idNumbers[n % idNumbers.length] };
      const res = await client.request('POST', '/api/patients/search', { body }).catch(() => null);
      if (res?.status === 200) w.searches++;
      continue;
    }
    const key = randomUUID();
    const patient = patients[n % patients.length]!;
    const body = {
      condition: 'Failover drill entry',
      status: 'Active',
      diagnosedDate: '2026-11-01',
      resolvedDate: '',
      description: `${MARKER} ${key}`,
      doctor: 'Dr. Drill',
      facility: 'Drill Clinic',
    };
    // The same add with the same key until it is acknowledged: a 503 (the server lost its database) or a lost
    // connection leave the outcome unknown, and only the key makes the retry safe.
    for (let attempt = 0; ; attempt++) {
      const sentAt = performance.now();
      const res = await client
        .request('POST', `/api/patients/${patient}/diagnoses`, { body, headers: { 'idempotency-key': key } })
        .catch(() => null);
      if (res && (res.status === 201 || res.status === 200)) {
        w.acknowledged.set(key, (JSON.parse(res.text) as { id: number }).id);
        onAck(sentAt, performance.now());
        break;
      }
      if (res && res.status !== 503 && res.status !== 502) throw new Error(`an add answered ${res.status}: ${res.text.slice(0, 300)}`);
      if (attempt > 400) {
        w.unfinished++;
        break;
      }
      await sleep(100);
    }
  }
  return w;
}

/**
 * An auditor's compliance report of today, asked for until it is stored: a 503 (the primary lost: the report is
 * computed on the read pool, but stored and audited on the primary) or a lost connection is retried, as the web
 * client does. Generating a report is not idempotent, but an unanswered one is at worst a second copy of a report.
 */
async function reportUntilStored(client: BenchClient, deadlineMs: number): Promise<DrillReport> {
  const today = new Date().toISOString().slice(0, 10);
  const body = { reportType: 'HIPAA', title: 'Failover drill', description: '', dateFrom: today, dateTo: today };
  const started = performance.now();
  const refusals: Record<string, number> = {};
  for (let attempts = 1; ; attempts++) {
    const res = await client.request('POST', '/api/compliance-reports/generate', { body }).catch(() => null);
    if (res?.status !== 201) {
      const code = res ? `${res.status} ${/"code":"([A-Z_]+)"/.exec(res.text)?.[1] ?? ''}`.trim() : 'no answer';
      refusals[code] = (refusals[code] ?? 0) + 1;
    }
    if (res?.status === 201) {
      const stored = JSON.parse(res.text) as { id: number; reportData: string };
      const data = JSON.parse(stored.reportData) as {
        dataAsOf?: { server: string; dataAsOf: string | null };
        summary: { auditEvents: number };
      };
      return {
        id: stored.id,
        attempts,
        refusals,
        seconds: (performance.now() - started) / 1000,
        server: data.dataAsOf?.server ?? 'unknown',
        dataAsOf: data.dataAsOf?.dataAsOf ?? null,
        auditEvents: data.summary.auditEvents,
      };
    }
    if (res && res.status !== 503 && res.status !== 502) throw new Error(`a report answered ${res.status}: ${res.text.slice(0, 300)}`);
    if (performance.now() - started > deadlineMs)
      throw new Error(`no report was stored within ${deadlineMs / 1000} s (${attempts} attempts)`);
    await sleep(250);
  }
}

const describeReport = (r: DrillReport): string =>
  `report ${r.id} in ${r.seconds.toFixed(1)} s (${r.attempts} attempt${r.attempts === 1 ? '' : 's'}${r.attempts > 1 ? `: ${JSON.stringify(r.refusals)}` : ''}), read on the ${r.server}, data as of ${r.dataAsOf ?? 'unknown'}, ${r.auditEvents} audit events`;

export async function runFailoverDrill(options: DrillOptions): Promise<DrillResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const connections = options.connections ?? 16;
  prepareDir(options.dir);
  const pair = new HaPair(path.join(options.dir, 'pair'), options.ports);
  const appDir = path.join(options.dir, 'app');
  const appEnv = { DATA_DIR: appDir, AUDIT_PAYLOAD_KEY: randomBytes(32).toString('base64'), RATE_LIMIT_REPORTS_PER_HOUR: '100000' };
  let stopServer: (() => Promise<void>) | undefined;
  try {
    let t = performance.now();
    await pair.start();
    log(`pair up in ${((performance.now() - t) / 1000).toFixed(1)} s: node1 primary, node2 synchronous standby`);

    const handle = await openDatabase({ databaseUrl: pair.databaseUrl, poolSize: 2 });
    await handle.migrate();
    const doctor = await createStaffUser(handle.db, { roleId: 3 });
    const auditor = await createStaffUser(handle.db, { roleId: 6 });
    const patients: number[] = [];
    const idNumbers: string[] = [];
    for (let i = 0; i < 16; i++) {
      const p = await createPatient(handle.db, { lastName: 'Drill' });
      patients.push(p.id);
      idNumbers.push(p.idNumber);
    }
    await handle.close();

    const server = await startServerProcess(pair.databaseUrl, 1, { ...appEnv, DATABASE_READ_URL: pair.readUrl });
    stopServer = server.stop;
    const base = `http://127.0.0.1:${server.port}`;
    const cookie = await signInOverHttp(server.port, doctor.email, doctor.password);
    const client = benchClient(base, cookie, connections);
    await grantAccess(client, patients, doctor.password);
    const auditorClient = benchClient(base, await signInOverHttp(server.port, auditor.email, auditor.password), 1);

    let stop = false;
    let killedAt = Number.POSITIVE_INFINITY;
    let firstAfterKill = Number.POSITIVE_INFINITY;
    // The outage ends with the first add both sent and acknowledged after the kill (one in flight at the kill and
    // answered just after it proves nothing about the new primary).
    const onAck = (sentAt: number, answeredAt: number): void => {
      if (sentAt > killedAt && answeredAt < firstAfterKill) firstAfterKill = answeredAt;
    };
    const writers = Array.from({ length: connections }, () => writer(client, patients, idNumbers, () => stop, onAck));

    await sleep((options.warmupSeconds ?? 5) * 1000);
    const reportBefore = await reportUntilStored(auditorClient, 30_000);
    log(`before the kill: ${describeReport(reportBefore)}`);
    const primary = await pair.primary();
    if (primary?.name !== 'node1') throw new Error(`node1 should be the primary before the kill, found ${primary?.name}`);
    killedAt = performance.now();
    pair.killNode(primary);
    log('primary node1 killed (keeper and postmaster, SIGKILL)');
    const reporting = reportUntilStored(auditorClient, 90_000);
    const deadline = killedAt + 60_000;
    while (firstAfterKill === Number.POSITIVE_INFINITY && performance.now() < deadline) await sleep(100);
    if (firstAfterKill === Number.POSITIVE_INFINITY) throw new Error('no write was acknowledged within 60 s of the kill');
    const outageSeconds = (firstAfterKill - killedAt) / 1000;
    log(`writes resumed ${outageSeconds.toFixed(1)} s after the kill`);
    await sleep((options.afterSeconds ?? 5) * 1000);
    stop = true;
    const done = await Promise.all(writers);
    const reportDuringFailover = await reporting;
    log(`during the failover: ${describeReport(reportDuringFailover)}`);
    client.close();
    auditorClient.close();

    let newPrimary = await pair.primary();
    for (let i = 0; i < 60 && newPrimary?.name !== 'node2'; i++) {
      await sleep(500);
      newPrimary = await pair.primary();
    }
    if (!newPrimary || newPrimary.name !== 'node2')
      throw new Error(`node2 should be the primary after the kill, found ${newPrimary?.name}`);
    const acknowledged = new Map<string, number>();
    for (const w of done) for (const [k, id] of w.acknowledged) acknowledged.set(k, id);
    const stored = new pg.Client({ connectionString: pair.nodeUrl(newPrimary) });
    await stored.connect();
    const { rows } = await stored.query<{ key: string; n: number }>(
      `SELECT substring(description from ${MARKER.length + 2}) AS key, count(*)::int AS n FROM diagnoses WHERE description LIKE '${MARKER} %' GROUP BY 1`,
    );
    await stored.end();
    const counts = new Map(rows.map((r) => [r.key, r.n]));
    const found = [...acknowledged.keys()].filter((k) => counts.has(k)).length;
    const duplicated = rows.filter((r) => r.n > 1).length;

    const verify = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/audit-verify.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...appEnv, DATABASE_URL: pair.databaseUrl },
      encoding: 'utf8',
      timeout: 120_000,
    });
    const okLine = /^OK: .*$/m.exec(verify.stdout)?.[0];
    if (verify.status !== 0 || !okLine)
      throw new Error(`audit:verify on the new primary failed (exit ${verify.status}):\n${verify.stdout}\n${verify.stderr}`);

    await stopServer();
    stopServer = undefined;

    t = performance.now();
    pair.restartNode(pair.nodes[0]);
    await pair.waitForStates({ node1: 'secondary', node2: 'primary' }, 180_000);
    const rejoinSeconds = (performance.now() - t) / 1000;
    log(`node1 rejoined as the standby in ${rejoinSeconds.toFixed(1)} s`);

    return {
      outageSeconds,
      acknowledged: acknowledged.size,
      found,
      lost: acknowledged.size - found,
      duplicated,
      unfinished: done.reduce((s, w) => s + w.unfinished, 0),
      searches: done.reduce((s, w) => s + w.searches, 0),
      auditVerify: okLine,
      rejoinSeconds,
      newPrimary: newPrimary.name,
      reportBefore,
      reportDuringFailover,
    };
  } finally {
    if (stopServer) await stopServer().catch(() => undefined);
    await pair.stop();
    rmSync(options.dir, { recursive: true, force: true });
  }
}
