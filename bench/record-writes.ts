// Issue 23's budgets over HTTP, each phase one request at a time on one keep-alive connection, with a signed-in
// doctor who holds a grant for every patient used:
// - the floor: GET /api/auth/user (session and permissions only, no transaction, no audit row);
// - add: POST /api/patients/{id}/medications with a fresh Idempotency-Key (the key's check, the duplicate check,
//   the row and its audit row), for patients spread over the registry; budget p95 <= 8 ms;
// - add replay: each add sent again with its key (the idempotency hit: the first answer, no row, no audit row);
// - edit: PATCH /api/medications/{id} of the rows added, If-Match their version (the new version, its history row,
//   the audit row); budget p95 <= 8 ms;
// - record open: GET /api/patients/{id}/record-summary; budget p95 <= 6 ms;
// - delta read: GET /api/patients/{id}/changes of patients with exactly 50 clinical rows across the kinds (topped up
//   by SQL), without a cursor (all 50) and with the cursor the previous read gave (nothing new); budget p95 <= 6 ms.
// RUNS runs (default 3) of SAMPLES requests per phase (default 1500); the table gives the median over the runs of
// each percentile. The adds confirm DUPLICATE_ENTRY (`?confirm=`): the duplicate check runs, and a patient who
// already has the medicine still gets the row.
// Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres PATIENTS=20000 WITH_RECORDS=5000 npm run bench -- writes
// (a scratch database, seeded as the records benchmark seeds it, then dropped), or on a seeded database as it is:
// SEEDED_DATABASE_URL=postgres://.../nhr_3m npm run bench -- writes   (after `npm run seed -- --patients 3000000`;
// it adds rows, grants and audit rows to it, and tops the delta patients up to 50 rows the first time).
// On PostgreSQL the server runs as `npm start` runs it, in its own WORKERS processes (default: one per core);
// SERVER=inline puts it in this process. Env: GRANTED (patients written to, and as many opened; default 500),
// DELTA_PATIENTS (default 50), WARMUP (requests per phase per warm-up connection, default 300).
// A measurement to report, not a test: it prints whether each budget was met and writes JSON to bench/results/.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ATC_SYSTEM } from '../src/contracts/code-systems';
import { ETAG, IDEMPOTENCY_KEY, IDEMPOTENT_REPLAYED, IF_MATCH, type ChangesResponse } from '../src/contracts/record-versions';
import { SAMPLE_INPUTS } from '../src/server/test/record-samples';
import {
  benchClient,
  clinicalRowCounts,
  grantAccess,
  loadAverage,
  openRecordBenchDatabase,
  SCALE,
  SEEDED,
  seedScratchRecords,
  seconds,
  signInDoctor,
  spreadPatients,
  startRecordBenchServer,
  stats,
  topUpClinicalRows,
  WORKERS,
  writeResult,
  type BenchClient,
  type Stats,
} from './record-bench-kit';

const SAMPLES = Number(process.env.SAMPLES ?? 1500);
const RUNS = Number(process.env.RUNS ?? 3);
const DELTA_PATIENTS = Number(process.env.DELTA_PATIENTS ?? 50);
const WARMUP = Number(process.env.WARMUP ?? 300);
const DELTA_ROWS = 50;

const PHASES = ['floor', 'add', 'addReplay', 'edit', 'recordOpen', 'changes', 'changesSince'] as const;
type Phase = (typeof PHASES)[number];
const LABELS: Record<Phase, string> = {
  floor: 'GET /api/auth/user (floor)',
  add: 'add: POST medication, new Idempotency-Key',
  addReplay: 'add replay: the same key again',
  edit: 'edit: PATCH dosage, If-Match',
  recordOpen: 'record open: GET record-summary',
  changes: `delta read, ${DELTA_ROWS} rows: GET changes`,
  changesSince: 'delta read: GET changes?since=<cursor>',
};
/** Issue 23's p95 budgets in ms (the replay is an add too). */
const BUDGETS: Partial<Record<Phase, number>> = { add: 8, addReplay: 8, edit: 8, recordOpen: 6, changes: 6, changesSince: 6 };

// Paracetamol: coded, so the duplicate and medicine checks run, but it meets no allergy or interaction of the seed.
const ADD_BODY = { ...SAMPLE_INPUTS.medications, name: 'Paracetamol', code: 'N02BE01', codeSystem: ATC_SYSTEM };
const CONFIRM = '?confirm=DUPLICATE_ENTRY';

const startedAt = new Date().toISOString();
const database = await openRecordBenchDatabase(4);
const db = database.handle.db;
try {
  if (!SEEDED) await seedScratchRecords(db, SCALE.patients, SCALE.withRecords);

  // Patients spread over the registry, the same ones on every run: the delta read's (at most 50 rows now, topped up
  // to 50), the records opened, the patients written to. Spares, in case some have more than 50 rows.
  let t0 = performance.now();
  const pool = await spreadPatients(db, 4 * DELTA_PATIENTS + 2 * SCALE.granted, SCALE.withRecords);
  const candidates = pool.slice(0, 4 * DELTA_PATIENTS);
  const counts = await clinicalRowCounts(db, candidates);
  const deltaIds = candidates.filter((id) => (counts.get(id) ?? 0) <= DELTA_ROWS).slice(0, DELTA_PATIENTS);
  if (deltaIds.length < DELTA_PATIENTS)
    throw new Error(`only ${deltaIds.length} of ${candidates.length} patients have at most ${DELTA_ROWS} rows`);
  await topUpClinicalRows(db, deltaIds, DELTA_ROWS);
  const openIds = pool.slice(4 * DELTA_PATIENTS, 4 * DELTA_PATIENTS + SCALE.granted);
  const writeIds = pool.slice(4 * DELTA_PATIENTS + SCALE.granted);
  console.log(`chose ${pool.length} patients and topped ${deltaIds.length} up to ${DELTA_ROWS} clinical rows in ${seconds(t0)}`);

  const server = await startRecordBenchServer(database, 4);
  try {
    const doctor = await signInDoctor(db, server.base);
    t0 = performance.now();
    const setup = benchClient(server.base, doctor.cookie, 1);
    await grantAccess(setup, [...deltaIds, ...openIds, ...writeIds], doctor.password);
    setup.close();
    console.log(`granted access to ${deltaIds.length + openIds.length + writeIds.length} patients in ${seconds(t0)}`);

    let added = 0;
    let opened = 0;
    let deltaRead = 0;
    const cursors = new Map<number, string>();
    const sinceRows: number[] = [];

    /** `n` requests of each phase in turn on `client`; each request's time, by phase. */
    async function phases(client: BenchClient, n: number): Promise<Record<Phase, number[]>> {
      const ms = Object.fromEntries(PHASES.map((p) => [p, [] as number[]])) as Record<Phase, number[]>;
      const check = (ok: boolean, what: string, answer: { status: number; text: string }): void => {
        if (!ok) throw new Error(`${what} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      };
      for (let i = 0; i < n; i++) ms.floor.push(await client.get('/api/auth/user'));

      const adds: { key: string; path: string; id: number }[] = [];
      for (let i = 0; i < n; i++) {
        const key = randomUUID();
        const path = `/api/patients/${writeIds[added++ % writeIds.length]}/medications${CONFIRM}`;
        const res = await client.request('POST', path, { body: ADD_BODY, headers: { [IDEMPOTENCY_KEY]: key } });
        check(res.status === 201 && res.headers[ETAG] === '"1"', `POST ${path}`, res);
        ms.add.push(res.ms);
        adds.push({ key, path, id: (JSON.parse(res.text) as { id: number }).id });
      }
      for (const { key, path, id } of adds) {
        const res = await client.request('POST', path, { body: ADD_BODY, headers: { [IDEMPOTENCY_KEY]: key } });
        const replayed =
          res.status === 201 && res.headers[IDEMPOTENT_REPLAYED] === 'true' && (JSON.parse(res.text) as { id: number }).id === id;
        check(replayed, `POST ${path} again with its key`, res);
        ms.addReplay.push(res.ms);
      }
      for (const [i, { id }] of adds.entries()) {
        const path = `/api/medications/${id}${CONFIRM}`;
        const res = await client.request('PATCH', path, {
          body: { dosage: `${250 * (2 + (i % 4))}mg daily` },
          headers: { [IF_MATCH]: '"1"' },
        });
        check(res.status === 200 && res.headers[ETAG] === '"2"', `PATCH ${path}`, res);
        ms.edit.push(res.ms);
      }

      for (let i = 0; i < n; i++)
        ms.recordOpen.push(await client.get(`/api/patients/${openIds[(opened++ * 7) % openIds.length]}/record-summary`));

      const read = async (id: number, since: string | undefined): Promise<ChangesResponse['changes']> => {
        const path = `/api/patients/${id}/changes${since ? `?since=${since}` : ''}`;
        const res = await client.request('GET', path);
        check(res.status === 200, `GET ${path}`, res);
        const answer = JSON.parse(res.text) as ChangesResponse;
        cursors.set(id, answer.cursor);
        (since ? ms.changesSince : ms.changes).push(res.ms);
        return answer.changes;
      };
      for (let i = 0; i < n; i++) {
        const id = deltaIds[deltaRead++ % deltaIds.length]!;
        const changes = await read(id, undefined);
        if (changes.length !== DELTA_ROWS) throw new Error(`the changes of patient ${id} are ${changes.length} rows, not ${DELTA_ROWS}`);
      }
      for (let i = 0; i < n; i++) {
        const id = deltaIds[deltaRead++ % deltaIds.length]!;
        sinceRows.push((await read(id, cursors.get(id))).length);
      }
      return ms;
    }

    // Warm-up: every worker (several connections, each new one handed to the next worker) and enough requests for
    // V8 to optimise each path, as on a server that has run for a while.
    t0 = performance.now();
    await Promise.all(
      Array.from({ length: 2 * Math.max(1, WORKERS) }, async () => {
        const client = benchClient(server.base, doctor.cookie, 1);
        await phases(client, WARMUP);
        client.close();
      }),
    );
    console.log(`warmed up in ${seconds(t0)}`);
    sinceRows.length = 0;

    const loadBefore = loadAverage();
    const runs: { loadBefore: number; loadAfter: number; phases: Record<Phase, Stats> }[] = [];
    const client = benchClient(server.base, doctor.cookie, 1);
    for (let run = 0; run < RUNS; run++) {
      const before = loadAverage();
      const ms = await phases(client, SAMPLES);
      runs.push({
        loadBefore: before,
        loadAfter: loadAverage(),
        phases: Object.fromEntries(PHASES.map((p) => [p, stats(ms[p])])) as Record<Phase, Stats>,
      });
      console.log(`run ${run + 1} of ${RUNS}: load average ${before} before, ${loadAverage()} after`);
    }
    client.close();
    const loadAfter = loadAverage();

    const median = (xs: number[]): number => {
      const s = [...xs].sort((a, b) => a - b);
      const mid = Math.floor(s.length / 2);
      return s.length % 2 ? s[mid]! : Math.round(((s[mid - 1]! + s[mid]!) / 2) * 100) / 100;
    };
    const medians = Object.fromEntries(
      PHASES.map((p) => {
        const of = (q: 'p50' | 'p95' | 'p99'): number => median(runs.map((r) => r.phases[p][q]));
        const budget = BUDGETS[p];
        return [
          p,
          {
            p50: of('p50'),
            p95: of('p95'),
            p99: of('p99'),
            budgetP95Ms: budget ?? null,
            met: budget === undefined ? null : of('p95') <= budget,
          },
        ];
      }),
    ) as Record<Phase, { p50: number; p95: number; p99: number; budgetP95Ms: number | null; met: boolean | null }>;

    const version = ((await db.execute(sql`SHOW server_version`)) as unknown as { rows: { server_version: string }[] }).rows[0]
      ?.server_version;
    const estimated = (await db.execute(sql`SELECT reltuples::bigint AS n FROM pg_class WHERE relname = 'patients'`)) as unknown as {
      rows: { n: string }[];
    };
    const registry = Number(estimated.rows[0]?.n ?? 0);
    const seededName = SEEDED ? new URL(SEEDED).pathname.slice(1) : null;

    console.log(
      `\ndatabase: ${database.handle.kind} ${version ?? ''}, node ${process.version}, HTTP on loopback with a session cookie, 1 connection`,
    );
    console.log(`server: ${server.describe}`);
    console.log(
      seededName
        ? `seeded database ${seededName} (about ${registry.toLocaleString('en')} patients)`
        : `scratch database: patients ${SCALE.patients.toLocaleString('en')}, with clinical entries ${SCALE.withRecords.toLocaleString('en')}`,
    );
    console.log(
      `patients: ${writeIds.length} written to, ${openIds.length} opened, ${deltaIds.length} read by delta (${DELTA_ROWS} rows each); ` +
        `${RUNS} runs of ${SAMPLES} requests per phase; median over the runs`,
    );
    console.log(`load average (1 min) ${loadBefore} before, ${loadAfter} after the measurements`);
    console.log(
      `\n${'phase'.padEnd(44)} ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'p99 ms'.padStart(7)}  budget p95   p95 of each run`,
    );
    for (const p of PHASES) {
      const m = medians[p];
      const budget = m.budgetP95Ms === null ? ''.padEnd(13) : `<= ${m.budgetP95Ms} ms ${m.met ? 'met ' : 'MISS'}`.padEnd(13);
      const each = runs.map((r) => r.phases[p].p95.toFixed(2)).join(', ');
      console.log(
        `${LABELS[p].padEnd(44)} ${m.p50.toFixed(2).padStart(7)} ${m.p95.toFixed(2).padStart(7)} ${m.p99.toFixed(2).padStart(7)}  ${budget}  ${each}`,
      );
    }
    const meanSince = sinceRows.reduce((a, b) => a + b, 0) / Math.max(1, sinceRows.length);
    console.log(
      `rows in a delta read with a cursor: ${meanSince.toFixed(2)} on average (rows written since by any transaction then running)`,
    );

    const file = writeResult('writes', database.handle.kind, startedAt, {
      benchmark: 'writes',
      startedAt,
      node: process.version,
      database: database.handle.kind,
      databaseVersion: version ?? null,
      server: server.describe,
      seeded: seededName,
      registryPatients: registry,
      scratch: seededName ? null : { patients: SCALE.patients, withRecords: SCALE.withRecords },
      patients: { writtenTo: writeIds.length, opened: openIds.length, delta: deltaIds.length, deltaRows: DELTA_ROWS },
      connections: 1,
      samplesPerPhase: SAMPLES,
      runs: RUNS,
      loadAverage: { before: loadBefore, after: loadAfter },
      median: medians,
      meanRowsInDeltaSince: Math.round(meanSince * 100) / 100,
      eachRun: runs,
    });
    console.log(`written to ${file}`);
  } finally {
    await server.stop();
  }
} finally {
  await database.dispose();
}
