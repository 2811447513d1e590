// Opening a patient record over HTTP (session, permission check, grant check, demographics, the five lists and
// vital signs, one audit row): GET /api/patients/{id}/record-summary, and for comparison the five SPEC list
// requests one after another. Patients: PATIENTS (default 3,000,000); clinical entries (about 16 per patient, laboratory results included) for
// the first WITH_RECORDS of them (default 200,000), whose records are opened.
// Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:records
// SEEDED_DATABASE_URL=postgres://.../db: measure on that database as it is (e.g. after `npm run seed -- --patients
// 3000000`), without seeding or dropping it. On PostgreSQL the server runs as `npm start` runs it, in its own
// WORKERS processes (default: one per core); SERVER=inline puts it in this process.
// A measurement to report, not a test: nothing here asserts a budget (DESIGN.md §10: p95 <= 10 ms).
import http from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { openDatabase } from '../src/server/db/client';
import { createStaffUser } from '../src/server/test/staff';
import { testConfig } from '../src/server/test/test-app';
import { createBenchDatabase, percentile, type BenchDatabase } from './bench-database';
import { startServerProcess } from './search/server-process';

const PATIENTS = Number(process.env.PATIENTS ?? 3_000_000);
const WITH_RECORDS = Math.min(PATIENTS, Number(process.env.WITH_RECORDS ?? 200_000));
const OPENS = Number(process.env.OPENS ?? 3000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const GRANTED = Number(process.env.GRANTED ?? 500);
/** SYNC_COMMIT=off: the bench database commits without waiting for the WAL flush (an experiment, see the report). */
const SYNC_COMMIT_OFF = process.env.SYNC_COMMIT === 'off';

const seconds = (since: number): string => `${((performance.now() - since) / 1000).toFixed(1)} s`;

function summary(label: string, samples: number[], wallMs?: number): string {
  const s = [...samples].sort((a, b) => a - b);
  const rate = wallMs ? `  ${Math.round((s.length / wallMs) * 1000)} req/s` : '';
  return `${label.padEnd(44)} n=${String(s.length).padStart(5)}  p50 ${percentile(s, 50).toFixed(2)} ms  p95 ${percentile(s, 95).toFixed(2)} ms  p99 ${percentile(s, 99).toFixed(2)} ms${rate}`;
}

const SEEDED = process.env.SEEDED_DATABASE_URL;
const WORKERS = Number(process.env.WORKERS ?? availableParallelism());
const INLINE = process.env.SERVER === 'inline';

async function seededDatabase(url: string): Promise<BenchDatabase> {
  const handle = await openDatabase({ databaseUrl: url, poolSize: 4 });
  await handle.migrate();
  return { handle, url, dispose: () => handle.close() };
}

const database = SEEDED ? await seededDatabase(SEEDED) : await createBenchDatabase({ poolSize: CONCURRENCY + 2 });
const db = database.handle.db;
const R = WITH_RECORDS;
try {
  let t0 = performance.now();
  if (!SEEDED) {
    // Patients in batches of 500,000 (one statement each); NC numbers are unique 11-digit strings.
    for (let from = 1; from <= PATIENTS; from += 500_000) {
      const to = Math.min(PATIENTS, from + 499_999);
      await db.execute(sql`
      INSERT INTO patients (first_name, last_name, date_of_birth, sex, id_number, contact_number, address, next_of_kin, next_of_kin_contact)
      SELECT (ARRAY['Ndapewa','Tangeni','Johanna','Petrus','Selma','Andreas','Maria','Festus'])[1 + i % 8] || i,
             (ARRAY['Amutenya','Shikongo','Nghipondoka','Hamutenya','Iipinge','Nangolo','van Wyk','Haufiku'])[1 + (i / 8) % 8],
             date '1930-01-01' + (i % 34000), (ARRAY['Male','Female'])[1 + i % 2], (10000000000 + i)::text,
             '+264 81 ' || lpad((i % 10000000)::text, 7, '0'), i || ' Independence Avenue, Windhoek, Khomas', 'Next of kin', '+264 81 000 0000'
      FROM generate_series(${from}::int, ${to}::int) AS i`);
    }
    console.log(`seeded ${PATIENTS.toLocaleString('en')} patients in ${seconds(t0)}`);
    t0 = performance.now();
    await db.execute(sql`INSERT INTO diagnoses (patient_id, condition, code, code_system, code_display, status, diagnosed_date, doctor, facility)
    SELECT p, (ARRAY['Hypertension','Type 2 diabetes mellitus','Asthma'])[1 + k], (ARRAY['I10','E11.9','J45.9'])[1 + k], 'http://hl7.org/fhir/sid/icd-10',
           (ARRAY['Essential (primary) hypertension','Type 2 diabetes mellitus without complications','Asthma, unspecified'])[1 + k],
           (ARRAY['Active','Chronic','Resolved'])[1 + (p + k) % 3],
           date '2015-01-01' + (p % 3000), 'Dr. Shikongo', 'Katutura State Hospital'
    FROM generate_series(1, ${R}::int) p, generate_series(0, 1) k`);
    await db.execute(sql`INSERT INTO appointments (patient_id, type, date, time, status, doctor, facility)
    SELECT p, 'Consultation', current_date - 200 + ((p + k * 97) % 260), '09:30', (ARRAY['Completed','Scheduled','Cancelled'])[1 + k], 'Dr. Shikongo', 'Katutura State Hospital'
    FROM generate_series(1, ${R}::int) p, generate_series(0, 2) k`);
    await db.execute(sql`INSERT INTO allergies (patient_id, allergen, reaction, severity, reported_date)
    SELECT p, 'Penicillin', 'Hives', 'Severe', date '2010-01-01' + (p % 4000) FROM generate_series(1, ${R}::int) p`);
    await db.execute(sql`INSERT INTO medications (patient_id, name, code, code_system, code_display, dosage, frequency, purpose, status, prescribed_date, prescribed_by)
    SELECT p, (ARRAY['Metformin','Amlodipine'])[1 + k], (ARRAY['A10BA02','C08CA01'])[1 + k], 'http://www.whocc.no/atc', (ARRAY['metformin','amlodipine'])[1 + k], '500mg daily', 'Twice daily', 'Treatment', 'Active', date '2018-01-01' + (p % 2000), 'Dr. Shikongo'
    FROM generate_series(1, ${R}::int) p, generate_series(0, 1) k`);
    await db.execute(sql`INSERT INTO vaccines (patient_id, vaccine, date, dose, facility)
    SELECT p, (ARRAY['Tetanus toxoid','COVID-19'])[1 + k], date '2012-01-01' + (p % 4000), 'Booster', 'Oshakati State Hospital'
    FROM generate_series(1, ${R}::int) p, generate_series(0, 1) k`);
    await db.execute(sql`INSERT INTO vitals (patient_id, systolic, diastolic, temperature, weight, recorded_at, recorded_by)
    SELECT p, 110 + (p + k) % 60, 70 + (p + k) % 30, 36.5, 70, now() - (k || ' days')::interval, 'Nurse Amutenya'
    FROM generate_series(1, ${R}::int) p, generate_series(0, 2) k`);
    await db.execute(sql`INSERT INTO lab_results (patient_id, name, code, code_system, code_display, value, unit, reference_low, reference_high,
                                                  collected_date, status, facility, abnormal_flag, entered_by, entered_at)
    SELECT p, (ARRAY['Haemoglobin','HbA1c','HIV rapid test'])[1 + k], (ARRAY['718-7','4548-4','68961-2'])[1 + k], 'http://loinc.org',
           (ARRAY['Hemoglobin [Mass/volume] in Blood','Hemoglobin A1c/Hemoglobin.total in Blood','HIV 1 Ab [Presence] in Serum, Plasma or Blood by Rapid immunoassay'])[1 + k],
           (ARRAY[to_jsonb(10 + (p % 80) / 10.0), to_jsonb(5 + (p % 40) / 10.0), to_jsonb('Negative'::text)])[1 + k],
           (ARRAY['g/dL','%',NULL])[1 + k], (ARRAY[12,4,NULL])[1 + k], (ARRAY[17.5,5.6,NULL])[1 + k],
           current_date - ((p + k * 31) % 700), 'final', 'Windhoek Central Hospital Laboratory',
           CASE WHEN k = 0 AND 10 + (p % 80) / 10.0 < 12 THEN 'L' WHEN k = 1 AND 5 + (p % 40) / 10.0 > 5.6 THEN 'H' END,
           'Dr. Shikongo', now() - ((p % 700) || ' days')::interval
    FROM generate_series(1, ${R}::int) p, generate_series(0, 2) k`);
    await db.execute(sql`ANALYZE`);
    console.log(`seeded clinical entries for ${R.toLocaleString('en')} patients (16 each) in ${seconds(t0)}`);
  }

  // The app gets its own pool, opened after any per-database setting so every connection has it.
  if (SYNC_COMMIT_OFF && database.url) {
    await db.execute(sql.raw(`ALTER DATABASE ${new URL(database.url).pathname.slice(1)} SET synchronous_commit = off`));
  }
  const separate = database.url && !INLINE;
  const appHandle =
    database.url && !separate ? await openDatabase({ databaseUrl: database.url, poolSize: CONCURRENCY + 2 }) : database.handle;
  const app = separate ? undefined : await buildApp({ db: appHandle.db, config: testConfig() });
  const server = separate ? await startServerProcess(database.url!, WORKERS) : undefined;
  const base = server ? `http://127.0.0.1:${server.port}` : await app!.listen({ host: '127.0.0.1', port: 0 });
  try {
    const doctor = await createStaffUser(db, { roleId: 3 });
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: doctor.email, password: doctor.password }),
    });
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    // The load's client: node:http over keep-alive sockets (as the search benchmark's), lighter than fetch, so
    // less of the two cores goes to the load generator.
    const target = new URL(base);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const get = (url: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const start = performance.now();
        const req = http.request(
          { agent, host: target.hostname, port: target.port, method: 'GET', path: url, headers: { cookie } },
          (res) => {
            res.on('data', () => undefined);
            res.on('error', reject);
            res.on('end', () =>
              res.statusCode === 200 ? resolve(performance.now() - start) : reject(new Error(`GET ${url} answered ${res.statusCode}`)),
            );
          },
        );
        req.on('error', reject);
        req.end();
      });

    // Patients spread over the ones with records; a grant for each, through the API (itself audited).
    const ids = SEEDED
      ? (
          (await db.execute(
            sql`SELECT patient_id AS id FROM diagnoses GROUP BY patient_id ORDER BY md5(patient_id::text) LIMIT ${GRANTED}`,
          )) as unknown as {
            rows: { id: number }[];
          }
        ).rows.map((r) => r.id)
      : Array.from({ length: GRANTED }, (_, i) => 1 + Math.floor(((i + 0.5) * R) / GRANTED));
    const grants: number[] = [];
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    for (const id of ids) {
      const start = performance.now();
      let res = await post(`/api/patients/${id}/access`, { consent: true });
      let answer = await res.text();
      // Past the hourly grant volume the doctor confirms the password, as a clinician would (decision 035).
      if (res.status === 403 && answer.includes('REAUTH_REQUIRED')) {
        await (await post('/api/auth/reauth/password', { password: doctor.password })).arrayBuffer();
        res = await post(`/api/patients/${id}/access`, { consent: true });
        answer = await res.text();
      }
      if (res.status !== 201) throw new Error(`grant answered ${res.status}: ${answer}`);
      grants.push(performance.now() - start);
    }
    // Warm-up: every worker (several connections, each new one handed to the next worker) and enough requests for
    // V8 to optimise the request path, as on a server that has run for a while.
    await Promise.all(
      Array.from({ length: 2 * Math.max(1, WORKERS) }, async (_, k) => {
        for (let i = 0; i < 750; i++) await get(`/api/patients/${ids[(k * 750 + i) % ids.length]}/record-summary`);
      }),
    );
    const loadBefore = loadavg()[0]!;

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
    console.log(
      `\ndatabase: ${database.handle.kind}${SYNC_COMMIT_OFF ? ' (synchronous_commit off)' : ''}, node ${process.version}, HTTP on loopback with a session cookie`,
    );
    console.log(`server: ${server ? `npm start in its own processes, WORKERS=${WORKERS}` : 'in the benchmark process'}`);
    console.log(`load average (1 min) ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after the measurements`);
    console.log(
      SEEDED
        ? `seeded database ${new URL(SEEDED).pathname.slice(1)}, records opened ${ids.length}`
        : `patients ${PATIENTS.toLocaleString('en')}, with clinical entries ${R.toLocaleString('en')}, records opened ${GRANTED}`,
    );
    console.log(summary('GET /api/auth/user (floor: session only)', baseline));
    console.log(summary('POST /api/patients/{id}/access (grant)', grants));
    console.log(summary('GET record-summary, 1 connection', sequential));
    console.log(summary(`GET record-summary, ${CONCURRENCY} connections`, concurrent, wall));
    console.log(summary('five SPEC list GETs in a row (total)', lists));
    console.log(`audit rows written: ${auditRows} (one per grant, open and list read)`);
    agent.destroy();
  } finally {
    await app?.close();
    await server?.stop();
    if (appHandle !== database.handle) await appHandle.close();
  }
} finally {
  await database.dispose();
}
