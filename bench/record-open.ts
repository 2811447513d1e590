// Opening a patient record over HTTP (session, permission check, grant check, demographics, the five lists and
// vital signs, one audit row): GET /api/patients/{id}/record-summary, and for comparison the five SPEC list
// requests one after another. Patients: PATIENTS (default 3,000,000); clinical entries (about 16 per patient, laboratory results included) for
// the first WITH_RECORDS of them (default 200,000), whose records are opened.
// Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:records
// SEEDED_DATABASE_URL=postgres://.../db: measure on that database as it is (e.g. after `npm run seed -- --patients
// 3000000`), without seeding or dropping it. On PostgreSQL the server runs as `npm start` runs it, in its own
// WORKERS processes (default: one per core); SERVER=inline puts it in this process.
// A measurement to report, not a test: nothing here asserts a budget (DESIGN.md §10: p95 <= 10 ms). Writes JSON to
// bench/results/records-*.json.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import {
  benchClient,
  grantAccess,
  loadAverage,
  openRecordBenchDatabase,
  SCALE,
  SEEDED,
  seededPatientsWithRecords,
  seedScratchRecords,
  signInDoctor,
  spreadPatients,
  startRecordBenchServer,
  stats,
  summary,
  WORKERS,
  writeResult,
} from './record-bench-kit';

const OPENS = Number(process.env.OPENS ?? 3000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
/** SYNC_COMMIT=off: the bench database commits without waiting for the WAL flush (an experiment, see the report). */
const SYNC_COMMIT_OFF = process.env.SYNC_COMMIT === 'off';

const startedAt = new Date().toISOString();
const database = await openRecordBenchDatabase(CONCURRENCY + 2);
const db = database.handle.db;
try {
  if (!SEEDED) await seedScratchRecords(db, SCALE.patients, SCALE.withRecords);
  // The app gets its own pool, opened after any per-database setting so every connection has it.
  if (SYNC_COMMIT_OFF && database.url) {
    await db.execute(sql.raw(`ALTER DATABASE ${new URL(database.url).pathname.slice(1)} SET synchronous_commit = off`));
  }
  const server = await startRecordBenchServer(database, CONCURRENCY + 2);
  try {
    const doctor = await signInDoctor(db, server.base);
    const client = benchClient(server.base, doctor.cookie, CONCURRENCY);
    const get = client.get;

    // Patients spread over the ones with records; a grant for each, through the API (itself audited).
    const ids = SEEDED ? await seededPatientsWithRecords(db, SCALE.granted) : await spreadPatients(db, SCALE.granted, SCALE.withRecords);
    const grants = await grantAccess(client, ids, doctor.password);
    // Warm-up: every worker (several connections, each new one handed to the next worker) and enough requests for
    // V8 to optimise the request path, as on a server that has run for a while.
    await Promise.all(
      Array.from({ length: 2 * Math.max(1, WORKERS) }, async (_, k) => {
        for (let i = 0; i < 750; i++) await get(`/api/patients/${ids[(k * 750 + i) % ids.length]}/record-summary`);
      }),
    );
    const loadBefore = loadAverage();

    // The floor under the same conditions: session and permissions only, no transaction, no audit row.
    const baseline: number[] = [];
    for (let i = 0; i < OPENS; i++) baseline.push(await get('/api/auth/user'));

    const sequential: number[] = [];
    for (let i = 0; i < OPENS; i++) sequential.push(await get(`/api/patients/${ids[(i * 7) % ids.length]}/record-summary`));

    const concurrent: number[] = [];
    let next = 0;
    const wallStart = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < OPENS) {
          const i = next++;
          concurrent.push(await get(`/api/patients/${ids[(i * 13) % ids.length]}/record-summary`));
        }
      }),
    );
    const wall = performance.now() - wallStart;

    const lists: number[] = [];
    for (let i = 0; i < Math.min(OPENS, 1000); i++) {
      const id = ids[(i * 11) % ids.length]!;
      let total = 0;
      for (const kind of ['diagnoses', 'appointments', 'allergies', 'medications', 'vaccines'])
        total += await get(`/api/patients/${id}/${kind}`);
      lists.push(total);
    }

    const counted = await db.execute(sql`SELECT count(*)::int AS n FROM audit_logs`);
    const auditRows = (counted as unknown as { rows: { n: number }[] }).rows[0]?.n;
    const loadAfter = loadAverage();
    client.close();
    console.log(
      `\ndatabase: ${database.handle.kind}${SYNC_COMMIT_OFF ? ' (synchronous_commit off)' : ''}, node ${process.version}, HTTP on loopback with a session cookie`,
    );
    console.log(`server: ${server.describe}`);
    console.log(`load average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after the measurements`);
    console.log(
      SEEDED
        ? `seeded database ${new URL(SEEDED).pathname.slice(1)}, records opened ${ids.length}`
        : `patients ${SCALE.patients.toLocaleString('en')}, with clinical entries ${SCALE.withRecords.toLocaleString('en')}, records opened ${SCALE.granted}`,
    );
    console.log(summary('GET /api/auth/user (floor: session only)', baseline));
    console.log(summary('POST /api/patients/{id}/access (grant)', grants));
    console.log(summary('GET record-summary, 1 connection', sequential));
    console.log(summary(`GET record-summary, ${CONCURRENCY} connections`, concurrent, wall));
    console.log(summary('five SPEC list GETs in a row (total)', lists));
    console.log(`audit rows written: ${auditRows} (one per grant, open and list read)`);
    const file = writeResult('records', database.handle.kind, startedAt, {
      benchmark: 'records',
      startedAt,
      node: process.version,
      database: database.handle.kind,
      synchronousCommitOff: SYNC_COMMIT_OFF,
      server: server.describe,
      seeded: SEEDED ? new URL(SEEDED).pathname.slice(1) : null,
      patients: SEEDED ? null : SCALE.patients,
      withRecords: SEEDED ? null : SCALE.withRecords,
      recordsOpened: ids.length,
      loadAverage: { before: loadBefore, after: loadAfter },
      floor: stats(baseline),
      grant: stats(grants),
      recordSummary1: stats(sequential),
      recordSummaryConcurrent: { connections: CONCURRENCY, ...stats(concurrent), reqPerSecond: Math.round((OPENS / wall) * 1000) },
      fiveLists: stats(lists),
    });
    console.log(`written to ${file}`);
  } finally {
    await server.stop();
  }
} finally {
  await database.dispose();
}
