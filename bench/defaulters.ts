// Issue 25 item 3's budget over HTTP: the defaulter list of one facility, GET /api/defaulters?facility=&from=&to=
// (the last year), answers in <= 1 s at 3,000,000 patients. One request at a time on one keep-alive connection, a
// nurse of each facility measured signed in (the list is only for one's own facility); RUNS runs (default 3) of
// SAMPLES lists per facility (default 20) for FACILITIES_MEASURED facilities (default 5, the largest); the median
// over the runs of each percentile. Each list is the real one: the index range scan, the patients' contacts and the
// SEARCH audit row naming every child listed.
// The scratch database: PATIENTS patients (default 3,000,000: CHILDREN of them, default 6 %, under 5, the others
// with dates of birth spread over 93 years, as the records benchmarks seed them); every child under 6 gets the
// schedule's doses up to their age at one of CLINICS clinics (default 50), a third of them stopping at some dose (the defaulters), each dose a few days late; then the defaulter
// index is written by the server's own code (refreshAllImmunizationDue). On a seeded database
// (SEEDED_DATABASE_URL, after `npm run seed`) its vaccines are used as they are and the index written if empty.
// Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres PATIENTS=100000 npm run bench -- defaulters
// A measurement to report, not a test: it prints whether the budget was met and writes JSON to bench/results/.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { addDays, todayIso } from '../src/contracts/calendar';
import { CVX_SYSTEM } from '../src/contracts/code-systems';
import { refreshAllImmunizationDue } from '../src/server/modules/immunization/immunization-due.service';
import { shippedSchedule } from '../src/server/modules/immunization/schedule-file';
import { createStaffUser } from '../src/server/test/staff';
import {
  benchClient,
  loadAverage,
  openRecordBenchDatabase,
  SCALE,
  SEEDED,
  seedScratchRecords,
  seconds,
  startRecordBenchServer,
  stats,
  WORKERS,
  writeResult,
  type Stats,
} from './record-bench-kit';
import { signInOverHttp } from './search/server-process';

const SAMPLES = Number(process.env.SAMPLES ?? 20);
const RUNS = Number(process.env.RUNS ?? 3);
const CLINICS = Number(process.env.CLINICS ?? 50);
/** Children under 5 among the patients (default 6 %, about Namibia's share): the records benchmarks' seed has none so young. */
const CHILDREN = Number(process.env.CHILDREN ?? Math.round(SCALE.patients * 0.06));
const MEASURED = Number(process.env.FACILITIES_MEASURED ?? 5);
const BUDGET_MS = 1000;

/** The schedule's doses as the scratch children get them: CVX code, name, age in days. */
const DOSES: [string, string, number][] = [
  ['19', 'BCG', 0],
  ['08', 'HepB birth dose', 0],
  ['178', 'OPV0', 0],
  ...[42, 70, 98].flatMap((age, i): [string, string, number][] => [
    ['178', `OPV${i + 1}`, age],
    ['198', `Penta${i + 1}`, age],
    ['133', `PCV${i + 1}`, age],
  ]),
  ['119', 'Rota1', 42],
  ['119', 'Rota2', 70],
  ['10', 'IPV', 98],
  ['04', 'MR1', 274],
  ['04', 'MR2', 456],
];

const rows = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

const startedAt = new Date().toISOString();
const database = await openRecordBenchDatabase(4);
const db = database.handle.db;
const shipped = shippedSchedule();
if (!shipped.ok) throw new Error('the shipped immunization schedule is broken');
try {
  let t0 = performance.now();
  if (!SEEDED) {
    await seedScratchRecords(db, SCALE.patients - CHILDREN, 0);
    t0 = performance.now();
    await db.execute(sql`
      INSERT INTO patients (first_name, last_name, date_of_birth, sex, id_number, contact_number, address, next_of_kin, next_of_kin_contact)
      SELECT (ARRAY['Ndapewa','Tangeni','Johanna','Petrus'])[1 + i % 4] || i, (ARRAY['Amutenya','Shikongo','Iipinge','Haufiku'])[1 + (i / 4) % 4],
             current_date - (i % 1826), (ARRAY['Male','Female'])[1 + i % 2], (20000000000 + i)::text,
             '+264 81 ' || lpad((i % 10000000)::text, 7, '0'), i || ' Independence Avenue, Windhoek, Khomas', 'Mother ' || i, '+264 85 000 0000'
        FROM generate_series(1, ${CHILDREN}::int) AS i`);
    console.log(`seeded ${CHILDREN.toLocaleString('en')} children under 5 in ${seconds(t0)}`);
    t0 = performance.now();
    const doses = sql.join(
      DOSES.map(([cvx, name, age], k) => sql`(${k}::int, ${name}::text, ${cvx}::text, ${age}::int)`),
      sql`, `,
    );
    await db.execute(sql`
      INSERT INTO vaccines (patient_id, vaccine, code, code_system, code_display, date, dose, facility)
      SELECT p.id, s.name, s.cvx, ${CVX_SYSTEM}, s.name, p.date_of_birth + s.age + (p.id + s.k) % 10, s.name, 'Clinic ' || (p.id % ${CLINICS})
        FROM patients p, (VALUES ${doses}) AS s(k, name, cvx, age)
       WHERE p.date_of_birth > current_date - 6 * 365 AND p.date_of_birth + s.age + (p.id + s.k) % 10 <= current_date
         AND (p.id % 3 <> 0 OR s.k < p.id % ${DOSES.length})`);
    await db.execute(sql`ANALYZE vaccines`);
    console.log(`seeded the vaccines of the children under 6 at ${CLINICS} clinics in ${seconds(t0)}`);
  }
  const [{ n: indexed } = { n: 0 }] = await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM immunization_due`);
  if (indexed === 0) {
    t0 = performance.now();
    await refreshAllImmunizationDue(db, shipped.schedule);
    await db.execute(sql`ANALYZE immunization_due`);
    console.log(`wrote the defaulter index in ${seconds(t0)}`);
  }
  const today = todayIso();
  const from = addDays(today, -365);
  const facilities = await rows<{ facility: string; rows: number; children: number }>(
    sql`SELECT facility, count(*)::int AS rows, count(DISTINCT patient_id)::int AS children FROM immunization_due
         GROUP BY facility ORDER BY count(*) DESC, facility LIMIT ${MEASURED}`,
  );
  const [{ n: indexRows } = { n: 0 }] = await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM immunization_due`);

  const server = await startRecordBenchServer(database, 4);
  try {
    const port = Number(new URL(server.base).port);
    const nurses = new Map<string, string>();
    for (const f of facilities) {
      const nurse = await createStaffUser(db, { roleId: 4, facility: f.facility });
      nurses.set(f.facility, await signInOverHttp(port, nurse.email, nurse.password));
    }
    const url = (facility: string) => `/api/defaulters?${new URLSearchParams({ facility, from, to: today }).toString()}`;
    const listed = new Map<string, number>();
    const runs: { loadBefore: number; loadAfter: number; lists: Stats }[] = [];
    for (let run = 0; run <= RUNS; run++) {
      const before = loadAverage();
      const ms: number[] = [];
      for (const f of facilities) {
        const client = benchClient(server.base, nurses.get(f.facility)!, 1);
        for (let i = 0; i < SAMPLES; i++) {
          const answer = await client.request('GET', url(f.facility));
          if (answer.status !== 200) throw new Error(`defaulters answered ${answer.status}: ${answer.text.slice(0, 300)}`);
          ms.push(answer.ms);
          listed.set(f.facility, (JSON.parse(answer.text) as { defaulters: unknown[] }).defaulters.length);
        }
        client.close();
      }
      // Run 0 warms the caches and plans; it is not counted.
      if (run > 0) runs.push({ loadBefore: before, loadAfter: loadAverage(), lists: stats(ms) });
      console.log(run === 0 ? 'warm-up run done' : `run ${run} of ${RUNS}: load average ${before} before, ${loadAverage()} after`);
    }
    const median = (xs: number[]): number => {
      const s = [...xs].sort((a, b) => a - b);
      const mid = Math.floor(s.length / 2);
      return s.length % 2 ? s[mid]! : Math.round(((s[mid - 1]! + s[mid]!) / 2) * 100) / 100;
    };
    const result = {
      p50: median(runs.map((r) => r.lists.p50)),
      p95: median(runs.map((r) => r.lists.p95)),
      p99: median(runs.map((r) => r.lists.p99)),
    };
    const met = result.p95 <= BUDGET_MS;
    const version = (await rows<{ server_version: string }>(sql`SHOW server_version`))[0]?.server_version;
    const [{ n: registry } = { n: 0 }] = await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM patients`);

    console.log(`\ndatabase: ${database.handle.kind} ${version ?? ''}, node ${process.version}, HTTP on loopback, 1 connection`);
    console.log(`server: ${server.describe}`);
    console.log(`patients ${registry.toLocaleString('en')}; defaulter index ${indexRows.toLocaleString('en')} rows`);
    for (const f of facilities)
      console.log(
        `  ${f.facility}: ${f.children.toLocaleString('en')} children in the index, ${listed.get(f.facility) ?? 0} listed as defaulters`,
      );
    console.log(`${RUNS} runs of ${SAMPLES} lists per facility for ${facilities.length} facilities; median over the runs`);
    console.log(
      `GET /api/defaulters (one facility, last year)   p50 ${result.p50.toFixed(1)} ms  p95 ${result.p95.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms  budget p95 <= ${BUDGET_MS} ms ${met ? 'met' : 'MISS'}`,
    );
    const file = writeResult('defaulters', database.handle.kind, startedAt, {
      benchmark: 'defaulters',
      startedAt,
      node: process.version,
      database: database.handle.kind,
      databaseVersion: version ?? null,
      server: server.describe,
      workers: WORKERS,
      patients: registry,
      indexRows,
      facilities: facilities.map((f) => ({ ...f, listed: listed.get(f.facility) ?? 0 })),
      samples: SAMPLES,
      runs,
      median: { ...result, budgetP95Ms: BUDGET_MS, met },
    });
    console.log(`\nwritten to ${file}`);
  } finally {
    await server.stop();
  }
} finally {
  await database.dispose();
}
