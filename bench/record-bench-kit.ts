// What the record benchmarks share (record-open.ts, record-writes.ts): the database (a scratch one they seed, or
// SEEDED_DATABASE_URL as it is), the synthetic clinical rows, the server (in its own WORKERS processes on PostgreSQL,
// else in the benchmark's process), a signed-in doctor, the keep-alive HTTP client, access grants, summary lines and
// the JSON written to bench/results/.
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql, type SQL } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { openDatabase, type Db } from '../src/server/db/client';
import { createStaffUser } from '../src/server/test/staff';
import { testConfig } from '../src/server/test/test-app';
import { createBenchDatabase, percentile, type BenchDatabase } from './bench-database';
import { signInOverHttp, startServerProcess } from './search/server-process';

/** A database seeded beforehand (e.g. `npm run seed -- --patients 3000000`), measured as it is: not seeded, not dropped. */
export const SEEDED = process.env.SEEDED_DATABASE_URL;
export const WORKERS = Number(process.env.WORKERS ?? availableParallelism());
export const INLINE = process.env.SERVER === 'inline';
const PATIENTS = Number(process.env.PATIENTS ?? 3_000_000);
/**
 * The scratch database: PATIENTS patients (default 3,000,000), clinical rows for the first WITH_RECORDS of them
 * (default 200,000); and GRANTED (default 500), how many patients the doctor is granted access to.
 */
export const SCALE = {
  patients: PATIENTS,
  withRecords: Math.min(PATIENTS, Number(process.env.WITH_RECORDS ?? 200_000)),
  granted: Number(process.env.GRANTED ?? 500),
};

export const seconds = (since: number): string => `${((performance.now() - since) / 1000).toFixed(1)} s`;
export const loadAverage = (): number => Math.round(loadavg()[0]! * 100) / 100;

/** SEEDED_DATABASE_URL migrated, or a scratch database (PostgreSQL with DATABASE_URL, else PGlite) to seed. */
export async function openRecordBenchDatabase(poolSize: number): Promise<BenchDatabase> {
  if (!SEEDED) return createBenchDatabase({ poolSize });
  const handle = await openDatabase({ databaseUrl: SEEDED, poolSize: 4 });
  await handle.migrate();
  return { handle, url: SEEDED, dispose: () => handle.close() };
}

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export const CLINICAL_TABLES = ['diagnoses', 'appointments', 'allergies', 'medications', 'vaccines', 'vitals', 'lab_results'] as const;
type ClinicalTable = (typeof CLINICAL_TABLES)[number];

/**
 * One INSERT ... SELECT per table over `from`, which names columns p (the patient id) and k (the entry's number for
 * that patient, from 0): the k-th entry of a kind for patient p is always the same.
 */
const CLINICAL_INSERTS: Record<ClinicalTable, (from: SQL) => SQL> = {
  diagnoses: (
    from,
  ) => sql`INSERT INTO diagnoses (patient_id, condition, code, code_system, code_display, status, diagnosed_date, doctor, facility)
    SELECT p, (ARRAY['Hypertension','Type 2 diabetes mellitus','Asthma'])[1 + k % 3], (ARRAY['I10','E11.9','J45.9'])[1 + k % 3], 'http://hl7.org/fhir/sid/icd-10',
           (ARRAY['Essential (primary) hypertension','Type 2 diabetes mellitus without complications','Asthma, unspecified'])[1 + k % 3],
           (ARRAY['Active','Chronic','Resolved'])[1 + (p + k) % 3],
           date '2015-01-01' + (p % 3000), 'Dr. Shikongo', 'Katutura State Hospital'
    FROM ${from}`,
  appointments: (from) => sql`INSERT INTO appointments (patient_id, type, date, time, status, doctor, facility)
    SELECT p, 'Consultation', current_date - 200 + ((p + k * 97) % 260), '09:30', (ARRAY['Completed','Scheduled','Cancelled'])[1 + k % 3], 'Dr. Shikongo', 'Katutura State Hospital'
    FROM ${from}`,
  allergies: (from) => sql`INSERT INTO allergies (patient_id, allergen, reaction, severity, reported_date)
    SELECT p, 'Penicillin', 'Hives', 'Severe', date '2010-01-01' + ((p + k) % 4000) FROM ${from}`,
  medications: (
    from,
  ) => sql`INSERT INTO medications (patient_id, name, code, code_system, code_display, dosage, frequency, purpose, status, prescribed_date, prescribed_by)
    SELECT p, (ARRAY['Metformin','Amlodipine'])[1 + k % 2], (ARRAY['A10BA02','C08CA01'])[1 + k % 2], 'http://www.whocc.no/atc', (ARRAY['metformin','amlodipine'])[1 + k % 2], '500mg daily', 'Twice daily', 'Treatment', 'Active', date '2018-01-01' + (p % 2000), 'Dr. Shikongo'
    FROM ${from}`,
  vaccines: (from) => sql`INSERT INTO vaccines (patient_id, vaccine, date, dose, facility)
    SELECT p, (ARRAY['Tetanus toxoid','COVID-19'])[1 + k % 2], date '2012-01-01' + (p % 4000), 'Booster', 'Oshakati State Hospital'
    FROM ${from}`,
  vitals: (from) => sql`INSERT INTO vitals (patient_id, systolic, diastolic, temperature, weight, recorded_at, recorded_by)
    SELECT p, 110 + (p + k) % 60, 70 + (p + k) % 30, 36.5, 70, now() - (k || ' days')::interval, 'Nurse Amutenya'
    FROM ${from}`,
  lab_results: (
    from,
  ) => sql`INSERT INTO lab_results (patient_id, name, code, code_system, code_display, value, unit, reference_low, reference_high,
                                                  collected_date, status, facility, abnormal_flag, entered_by, entered_at)
    SELECT p, (ARRAY['Haemoglobin','HbA1c','HIV rapid test'])[1 + k % 3], (ARRAY['718-7','4548-4','68961-2'])[1 + k % 3], 'http://loinc.org',
           (ARRAY['Hemoglobin [Mass/volume] in Blood','Hemoglobin A1c/Hemoglobin.total in Blood','HIV 1 Ab [Presence] in Serum, Plasma or Blood by Rapid immunoassay'])[1 + k % 3],
           (ARRAY[to_jsonb(10 + (p % 80) / 10.0), to_jsonb(5 + (p % 40) / 10.0), to_jsonb('Negative'::text)])[1 + k % 3],
           (ARRAY['g/dL','%',NULL])[1 + k % 3], (ARRAY[12,4,NULL])[1 + k % 3], (ARRAY[17.5,5.6,NULL])[1 + k % 3],
           current_date - ((p + k * 31) % 700), 'final', 'Windhoek Central Hospital Laboratory',
           CASE WHEN k % 3 = 0 AND 10 + (p % 80) / 10.0 < 12 THEN 'L' WHEN k % 3 = 1 AND 5 + (p % 40) / 10.0 > 5.6 THEN 'H' END,
           'Dr. Shikongo', now() - ((p % 700) || ' days')::interval
    FROM ${from}`,
};

/** Entries of each kind per patient in a scratch database: 16 in all. */
const PER_PATIENT: Record<ClinicalTable, number> = {
  diagnoses: 2,
  appointments: 3,
  allergies: 1,
  medications: 2,
  vaccines: 2,
  vitals: 3,
  lab_results: 3,
};

/** A scratch database: `patients` patients (NC numbers unique 11-digit strings), 16 clinical entries for the first `withRecords`. */
export async function seedScratchRecords(db: Db, patients: number, withRecords: number): Promise<void> {
  let t0 = performance.now();
  // Patients in batches of 500,000 (one statement each).
  for (let from = 1; from <= patients; from += 500_000) {
    const to = Math.min(patients, from + 499_999);
    await db.execute(sql`
      INSERT INTO patients (first_name, last_name, date_of_birth, sex, id_number, contact_number, address, next_of_kin, next_of_kin_contact)
      SELECT (ARRAY['Ndapewa','Tangeni','Johanna','Petrus','Selma','Andreas','Maria','Festus'])[1 + i % 8] || i,
             (ARRAY['Amutenya','Shikongo','Nghipondoka','Hamutenya','Iipinge','Nangolo','van Wyk','Haufiku'])[1 + (i / 8) % 8],
             date '1930-01-01' + (i % 34000), (ARRAY['Male','Female'])[1 + i % 2], (10000000000 + i)::text,
             '+264 81 ' || lpad((i % 10000000)::text, 7, '0'), i || ' Independence Avenue, Windhoek, Khomas', 'Next of kin', '+264 81 000 0000'
      FROM generate_series(${from}::int, ${to}::int) AS i`);
  }
  console.log(`seeded ${patients.toLocaleString('en')} patients in ${seconds(t0)}`);
  t0 = performance.now();
  for (const table of CLINICAL_TABLES)
    await db.execute(
      CLINICAL_INSERTS[table](sql`generate_series(1, ${withRecords}::int) AS p, generate_series(0, ${PER_PATIENT[table] - 1}::int) AS k`),
    );
  await db.execute(sql`ANALYZE`);
  console.log(`seeded clinical entries for ${withRecords.toLocaleString('en')} patients (16 each) in ${seconds(t0)}`);
}

/** Clinical rows of each of `ids`, every kind, entered in error included (the delta read sends those too). */
export async function clinicalRowCounts(db: Db, ids: number[]): Promise<Map<number, number>> {
  const list = sql`${`{${ids.join(',')}}`}::int[]`;
  const counted = await rows<{ id: number; n: number }>(
    db,
    sql`SELECT id, (${sql.join(
      CLINICAL_TABLES.map((t) => sql`(SELECT count(*) FROM ${sql.identifier(t)} c WHERE c.patient_id = ids.id)`),
      sql` + `,
    )})::int AS n FROM unnest(${list}) AS ids(id)`,
  );
  return new Map(counted.map((r) => [r.id, r.n]));
}

/** Adds clinical rows, spread over the kinds, until each of `ids` has exactly `total` (none has more when called). */
export async function topUpClinicalRows(db: Db, ids: number[], total: number): Promise<void> {
  const counts = await clinicalRowCounts(db, ids);
  const missing = ids.map((id) => total - (counts.get(id) ?? 0));
  for (const [t, table] of CLINICAL_TABLES.entries()) {
    const per = missing.map((m) => Math.floor(m / CLINICAL_TABLES.length) + (t < m % CLINICAL_TABLES.length ? 1 : 0));
    const array = (xs: number[]): SQL => sql`${`{${xs.join(',')}}`}::int[]`;
    await db.execute(CLINICAL_INSERTS[table](sql`unnest(${array(ids)}, ${array(per)}) AS t(p, c), generate_series(0, t.c - 1) AS k`));
  }
}

/** `n` patients spread over the registry (the same ones each run): every patient of a seeded database, else the first `withRecords`. */
export async function spreadPatients(db: Db, n: number, withRecords: number): Promise<number[]> {
  if (!SEEDED) return Array.from({ length: n }, (_, i) => 1 + Math.floor(((i + 0.5) * withRecords) / n));
  return (await rows<{ id: number }>(db, sql`SELECT id FROM patients ORDER BY md5(id::text) LIMIT ${n}`)).map((r) => r.id);
}

/** Patients of a seeded database that have clinical entries (a diagnosis), spread by a hash, the same ones each run. */
export async function seededPatientsWithRecords(db: Db, n: number): Promise<number[]> {
  return (
    await rows<{ id: number }>(
      db,
      sql`SELECT patient_id AS id FROM diagnoses GROUP BY patient_id ORDER BY md5(patient_id::text) LIMIT ${n}`,
    )
  ).map((r) => r.id);
}

export interface BenchServer {
  base: string;
  /** How the server runs, for the report. */
  describe: string;
  stop(): Promise<void>;
}

/**
 * On PostgreSQL the server as `npm start` runs it, in its own WORKERS processes; with SERVER=inline (or on PGlite)
 * the app in this process, with its own pool of `poolSize` on PostgreSQL (opened after any per-database setting).
 */
export async function startRecordBenchServer(database: BenchDatabase, poolSize: number): Promise<BenchServer> {
  if (database.url && !INLINE) {
    const server = await startServerProcess(database.url, WORKERS);
    return { base: `http://127.0.0.1:${server.port}`, describe: `npm start in its own processes, WORKERS=${WORKERS}`, stop: server.stop };
  }
  const appHandle = database.url ? await openDatabase({ databaseUrl: database.url, poolSize }) : database.handle;
  const app = await buildApp({ db: appHandle.db, config: testConfig() });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    base,
    describe: 'in the benchmark process',
    async stop() {
      await app.close();
      if (appHandle !== database.handle) await appHandle.close();
    },
  };
}

export interface SignedInDoctor {
  cookie: string;
  password: string;
}

/** A new doctor (role 3), signed in over HTTP. */
export async function signInDoctor(db: Db, base: string): Promise<SignedInDoctor> {
  const doctor = await createStaffUser(db, { roleId: 3 });
  const cookie = await signInOverHttp(Number(new URL(base).port), doctor.email, doctor.password);
  return { cookie, password: doctor.password };
}

export interface Answer {
  status: number;
  /** From the request's start to the answer's last byte. */
  ms: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface BenchClient {
  request(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }): Promise<Answer>;
  /** A GET that must answer 200; its time in ms. */
  get(path: string): Promise<number>;
  close(): void;
}

/**
 * The load's client: node:http over at most `connections` keep-alive sockets (as the search benchmark's), lighter
 * than fetch, so less of the cores goes to the load generator. Each client opens its own connections.
 */
export function benchClient(base: string, cookie: string, connections: number): BenchClient {
  const target = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const request: BenchClient['request'] = (method, path, options = {}) =>
    new Promise((resolve, reject) => {
      const body = options.body === undefined ? undefined : JSON.stringify(options.body);
      const headers: Record<string, string> = { cookie, ...options.headers };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const start = performance.now();
      const req = http.request({ agent, host: target.hostname, port: target.port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - start,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      });
      req.on('error', reject);
      req.end(body);
    });
  return {
    request,
    async get(path) {
      const answer = await request('GET', path);
      if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      return answer.ms;
    },
    close: () => agent.destroy(),
  };
}

/** A grant for each patient through the API (itself audited); the time of each. */
export async function grantAccess(client: BenchClient, ids: number[], password: string): Promise<number[]> {
  const times: number[] = [];
  for (const id of ids) {
    const start = performance.now();
    let res = await client.request('POST', `/api/patients/${id}/access`, { body: { consent: true } });
    // Past the hourly grant volume the doctor confirms the password, as a clinician would (decision 035).
    if (res.status === 403 && res.text.includes('REAUTH_REQUIRED')) {
      await client.request('POST', '/api/auth/reauth/password', { body: { password } });
      res = await client.request('POST', `/api/patients/${id}/access`, { body: { consent: true } });
    }
    if (res.status !== 201) throw new Error(`grant answered ${res.status}: ${res.text}`);
    times.push(performance.now() - start);
  }
  return times;
}

export interface Stats {
  n: number;
  p50: number;
  p95: number;
  p99: number;
}

export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const round = (x: number): number => Math.round(x * 100) / 100;
  return { n: s.length, p50: round(percentile(s, 50)), p95: round(percentile(s, 95)), p99: round(percentile(s, 99)) };
}

/** One line: label, n, p50/p95/p99 (and req/s when the wall time is given). */
export function summary(label: string, samples: number[], wallMs?: number): string {
  const s = stats(samples);
  const rate = wallMs ? `  ${Math.round((s.n / wallMs) * 1000)} req/s` : '';
  return `${label.padEnd(44)} n=${String(s.n).padStart(5)}  p50 ${s.p50.toFixed(2)} ms  p95 ${s.p95.toFixed(2)} ms  p99 ${s.p99.toFixed(2)} ms${rate}`;
}

/** Writes bench/results/<name>-<database>-<time>.json and <name>-latest.json; the first one's path. */
export function writeResult(name: string, database: string, startedAt: string, report: object): string {
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = `${dir}${name}-${database}-${startedAt.replace(/[:.]/g, '-')}.json`;
  const text = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(file, text);
  writeFileSync(`${dir}${name}-latest.json`, text);
  return file;
}
