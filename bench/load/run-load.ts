// npm run bench -- load (issue 29 item 1): many clinicians at once, as a hospital loads the system. USERS signed-in
// staff of the clinical roles (doctors and nurses, default 64), each with its own session and its own connection,
// run a mix (search 55 %, record open 25 %, add a clinical item 10 %, access grant 5 %, portal 5 %: a patient's own
// record) at each of LEVELS connection counts (default 1,16,64: that many users at once), for SECONDS each (after
// WARM_SECONDS, default 20, unmeasured at the highest level, HTTP and raw), against
// the server as `npm start` runs it (WORKERS processes) from this process. Then the raw SQL reference: the same
// operations with their audit append, straight on the database at the same concurrency. Prints per operation p50,
// p95, p99 and errors, req/s, and the CPU time per request of the server's processes and of PostgreSQL (from /proc),
// and writes JSON to bench/results/. With RATE (requests per second, e.g. RATE=50 for the capacity note's 1x), the
// users pace themselves to that rate in all (open load, as clinics send it) instead of sending as fast as answers come.
// Database: SEEDED_DATABASE_URL (e.g. `npm run seed -- --patients 3000000`), else a scratch one on DATABASE_URL with
// PATIENTS (default 100,000) patients, clinical rows for WITH_RECORDS (default 20,000).
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { todayIso } from '../../src/contracts/calendar';
import { withAudit } from '../../src/server/audit/audit-writer';
import type { Db } from '../../src/server/db/client';
import { readSummaryAudited } from '../../src/server/modules/records/record-summary.repository';
import { searchAuditSummary, searchPatients } from '../../src/server/modules/patients/search.service';
import { activatePatient, PATIENT_PIN } from '../../src/server/test/portal-fixtures';
import { createStaffUser } from '../../src/server/test/staff';
import { createBenchDatabase, percentile, vacuumRewrittenTables, type BenchDatabase } from '../bench-database';
import { benchClient, SEEDED, seedScratchRecords, writeResult, type BenchClient } from '../record-bench-kit';
import { startServerProcess } from '../search/server-process';
import { openDatabase } from '../../src/server/db/client';
import { loopDelayProbe, loopDelaySampler, type LoopDelay } from './loop-delay';
import { cpuSampler } from './proc-cpu';
import { waitSampler, type WaitProfile } from './wait-sampler';

const USERS = Number(process.env.USERS ?? 64);
const LEVELS = (process.env.LEVELS ?? '1,16,64').split(',').map(Number);
const SECONDS = Number(process.env.SECONDS ?? 20);
/** Unmeasured seconds at the highest level before the levels (WARM_SECONDS). */
const WARM_SECONDS = Number(process.env.WARM_SECONDS ?? 20);
/** Requests per second in all, or 0: as fast as the server answers. */
const RATE = Number(process.env.RATE ?? 0);
const WORKERS = Number(process.env.WORKERS ?? 2);
const PATIENTS = Number(process.env.PATIENTS ?? 100_000);
const WITH_RECORDS = Number(process.env.WITH_RECORDS ?? 20_000);
/** Patients each user has a grant for beforehand (record opens and adds go to these). */
const GRANTED_EACH = 20;
const PORTAL_PATIENTS = 16;

const OPERATIONS = ['search', 'open', 'add', 'grant', 'portal'] as const;
type Operation = (typeof OPERATIONS)[number];
const MIX: Record<Operation, number> = { search: 55, open: 25, add: 10, grant: 5, portal: 5 };

interface Patient {
  id: number;
  idNumber: string;
  dateOfBirth: string;
}

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** A repeatable stream of operations: the mix, in the same order for the same seed. */
function picker(seed: number): () => Operation {
  let x = seed >>> 0 || 1;
  const total = OPERATIONS.reduce((s, op) => s + MIX[op], 0);
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    let r = (x >>> 0) % total;
    for (const op of OPERATIONS) {
      if (r < MIX[op]) return op;
      r -= MIX[op];
    }
    return 'search';
  };
}

interface Sample {
  op: Operation;
  ms: number;
  ok: boolean;
}

interface LevelResult {
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  errors: number;
  operations: Record<string, { n: number; errors: number; p50: number; p95: number; p99: number }>;
  cpuPerRequestMs?: { server: number; postgres: number };
  /** What PostgreSQL's active backends waited on (pg_stat_activity, pg_locks) and each worker's event loop delay. */
  waits?: WaitProfile;
  loopDelay?: LoopDelay[];
}

function summarize(connections: number, samples: Sample[], wallMs: number): LevelResult {
  const round = (x: number): number => Math.round(x * 100) / 100;
  const operations: LevelResult['operations'] = {};
  for (const op of OPERATIONS) {
    const mine = samples.filter((s) => s.op === op);
    const ms = mine.map((s) => s.ms).sort((a, b) => a - b);
    if (ms.length === 0) continue;
    operations[op] = {
      n: mine.length,
      errors: mine.filter((s) => !s.ok).length,
      p50: round(percentile(ms, 50)),
      p95: round(percentile(ms, 95)),
      p99: round(percentile(ms, 99)),
    };
  }
  return {
    connections,
    seconds: round(wallMs / 1000),
    requests: samples.length,
    requestsPerSecond: Math.round((samples.length / wallMs) * 1000),
    errors: samples.filter((s) => !s.ok).length,
    operations,
  };
}

/** `connections` loops for SECONDS, each running `step` with its own index; every step timed. */
async function drive(
  connections: number,
  step: (loop: number, op: Operation, n: number) => Promise<boolean>,
  seconds = SECONDS,
): Promise<{ samples: Sample[]; wallMs: number }> {
  const samples: Sample[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, loop) => {
      const next = picker(loop + 1);
      for (let n = 0; performance.now() < end; n++) {
        // Paced: this loop's n-th request is due at start + n * connections / RATE (spread over the loops), and its
        // time counts from when it was due, so a request that waited for a late answer before it shows the wait.
        let due = performance.now();
        if (RATE > 0) {
          due = start + ((n + loop / connections) * connections * 1000) / RATE;
          if (due >= end) break;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        }
        const op = next();
        const ok = await step(loop, op, n).catch(() => false);
        samples.push({ op, ms: performance.now() - due, ok });
      }
    }),
  );
  return { samples, wallMs: performance.now() - start };
}

/** A client address of its own for the i-th sign-in (10.x.y.z). */
const addressOf = (i: number): string => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/** Signs in (staff or patient) from `address`; the session cookie (`nhr_sid=...`). */
async function signInFrom(base: string, path: string, body: object, address: string): Promise<string> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('nhr_sid='));
  if (res.status !== 200 || !cookie) throw new Error(`sign-in (${path}) answered ${res.status}: ${await res.text()}`);
  return cookie.split(';')[0]!;
}

async function openDatabaseForLoad(): Promise<BenchDatabase> {
  if (SEEDED) {
    const handle = await openDatabase({ databaseUrl: SEEDED, poolSize: Math.max(...LEVELS) + 2 });
    await handle.migrate();
    await vacuumRewrittenTables(handle);
    return { handle, url: SEEDED, dispose: () => handle.close() };
  }
  const database = await createBenchDatabase({ poolSize: Math.max(...LEVELS) + 2 });
  if (!database.url) throw new Error('npm run bench -- load needs PostgreSQL: set DATABASE_URL or SEEDED_DATABASE_URL');
  await seedScratchRecords(database.handle.db, PATIENTS, WITH_RECORDS);
  return database;
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const database = await openDatabaseForLoad();
  const db = database.handle.db;
  const today = todayIso(new Date());
  try {
    const pool = await rows<Patient>(
      db,
      sql`SELECT id, id_number AS "idNumber", date_of_birth::text AS "dateOfBirth" FROM patients
           WHERE id IN (SELECT patient_id FROM diagnoses) AND replaced_by IS NULL ORDER BY md5(id::text) LIMIT ${USERS * GRANTED_EACH + 2000}`,
    );
    const granted = pool.slice(0, USERS * GRANTED_EACH);
    const fresh = pool.slice(USERS * GRANTED_EACH);
    const portalPatients = granted.slice(0, PORTAL_PATIENTS);
    // Each user signs in from an address of its own (X-Forwarded-For through a trusted proxy): the sign-in throttle
    // allows 100 attempts per address in 15 minutes, and two runs sign in more users than that.
    const probe = loopDelayProbe();
    const server = await startServerProcess(database.url!, WORKERS, { TRUST_PROXY: '127.0.0.1', ...probe.env }, probe.nodeArgs);
    const databaseName = new URL(database.url!).pathname.slice(1);
    const base = `http://127.0.0.1:${server.port}`;
    console.log(
      `server: npm start, WORKERS=${WORKERS}; ${USERS} users; mix ${JSON.stringify(MIX)}; ${SECONDS} s per level` +
        (RATE > 0 ? `; paced to ${RATE} req/s in all` : ''),
    );
    try {
      const users: { client: BenchClient; mine: Patient[]; password: string }[] = [];
      for (let i = 0; i < USERS; i++) {
        const user = await createStaffUser(db, { roleId: i % 2 === 0 ? 3 : 4 });
        const cookie = await signInFrom(base, '/api/auth/login', { email: user.email, password: user.password }, addressOf(i));
        const client = benchClient(base, cookie, 1);
        const mine = granted.slice(i * GRANTED_EACH, (i + 1) * GRANTED_EACH);
        for (const p of mine) {
          const res = await client.request('POST', `/api/patients/${p.id}/access`, { body: { consent: true } });
          if (res.status !== 201) throw new Error(`grant answered ${res.status}: ${res.text}`);
        }
        users.push({ client, mine, password: user.password });
      }
      const portal: BenchClient[] = [];
      for (const p of portalPatients) {
        // A portal a run on this database activated already keeps its PIN.
        const [active] = await rows<{ n: number }>(
          db,
          sql`SELECT count(*)::int AS n FROM patient_portal_credentials WHERE patient_id = ${p.id} AND pin_hash IS NOT NULL`,
        );
        if (!active?.n) await activatePatient(db, { id: p.id, ncNumber: p.idNumber, dateOfBirth: p.dateOfBirth });
        const cookie = await signInFrom(
          base,
          '/api/auth/patient-login',
          { ncNumber: p.idNumber, dateOfBirth: p.dateOfBirth, pin: PATIENT_PIN },
          addressOf(USERS + portal.length),
        );
        // As many connections as the loops that share this portal at the highest level: a loop's request never waits
        // in this process for another loop's (the figures are the server's, as for the staff users' clients).
        portal.push(benchClient(base, cookie, Math.ceil(Math.max(...LEVELS) / PORTAL_PATIENTS)));
      }
      let freshNext = 0;
      const httpStep = async (loop: number, op: Operation, n: number): Promise<boolean> => {
        const u = users[loop % users.length]!;
        const p = u.mine[n % u.mine.length]!;
        const ok = (status: number): boolean => status >= 200 && status < 300;
        switch (op) {
          case 'search':
            return ok(
              (await u.client.request('POST', '/api/patients/search', { body: { method: 'id-number', idNumber: p.idNumber } })).status,
            );
          case 'open':
            return ok((await u.client.request('GET', `/api/patients/${p.id}/record-summary`)).status);
          case 'add': {
            const body = {
              condition: 'Load test entry',
              status: 'Active',
              diagnosedDate: today,
              resolvedDate: '',
              description: 'load',
              doctor: 'Dr. Load',
              facility: 'Load Clinic',
            };
            return ok(
              (await u.client.request('POST', `/api/patients/${p.id}/diagnoses`, { body, headers: { 'idempotency-key': randomUUID() } }))
                .status,
            );
          }
          case 'grant': {
            const target = fresh[freshNext++ % fresh.length]!;
            let res = await u.client.request('POST', `/api/patients/${target.id}/access`, { body: { consent: true } });
            if (res.status === 403 && res.text.includes('REAUTH_REQUIRED')) {
              await u.client.request('POST', '/api/auth/reauth/password', { body: { password: u.password } });
              res = await u.client.request('POST', `/api/patients/${target.id}/access`, { body: { consent: true } });
            }
            return ok(res.status);
          }
          case 'portal':
            return ok((await portal[loop % portal.length]!.request('GET', '/api/patient-portal/me')).status);
        }
      };

      // The raw reference: one user of its own, granted the same patients, straight on the database.
      const raw = await createStaffUser(db, { roleId: 3 });
      await db.execute(sql`INSERT INTO access_grants (user_id, patient_id, consent, expires_at)
                           SELECT ${raw.id}, id, true, now() + interval '1 day' FROM patients WHERE id = ANY(${`{${pool.map((p) => p.id).join(',')}}`}::int[])`);
      const actor = { userId: raw.id, userName: 'Bench Raw', facility: null };
      const meta = { ip: '127.0.0.1', userAgent: 'bench', sessionHash: null };
      const rawStep = async (loop: number, op: Operation, n: number): Promise<boolean> => {
        const p = granted[(loop * GRANTED_EACH + n) % granted.length]!;
        switch (op) {
          case 'search':
            await withAudit(
              db,
              (tx) => searchPatients(tx, { method: 'id-number', idNumber: p.idNumber }, { today }),
              (results) => ({
                actor,
                meta,
                action: 'SEARCH',
                resourceType: 'PATIENT',
                patientId: results.length === 1 ? results[0]!.id : null,
                newValues: {
                  ...searchAuditSummary({ method: 'id-number', idNumber: p.idNumber }, results),
                  patientIds: results.map((r) => r.id),
                },
              }),
            );
            return true;
          case 'open':
          case 'portal':
            return (await readSummaryAudited(db, raw.id, p.id, new Date(), { actor, meta, action: 'VIEW', resourceType: 'PATIENT' })).found;
          case 'add':
            await withAudit(
              db,
              (tx) =>
                tx.execute(sql`INSERT INTO diagnoses (patient_id, condition, status, diagnosed_date, description, doctor, facility)
                               VALUES (${p.id}, 'Load test entry', 'Active', ${today}, 'load', 'Dr. Load', 'Load Clinic') RETURNING id`),
              (r) => ({
                actor,
                meta,
                action: 'CREATE',
                resourceType: 'DIAGNOSIS',
                patientId: p.id,
                resourceId: (r as unknown as { rows: { id: number }[] }).rows[0]!.id,
              }),
            );
            return true;
          case 'grant': {
            const target = fresh[(loop * 7 + n) % fresh.length]!;
            await withAudit(
              db,
              (tx) =>
                tx.execute(
                  sql`INSERT INTO access_grants (user_id, patient_id, consent, expires_at) VALUES (${raw.id}, ${target.id}, true, now() + interval '8 hours')`,
                ),
              () => ({ actor, meta, action: 'CREATE', resourceType: 'PATIENT', patientId: target.id, newValues: { access: 'consent' } }),
            );
            return true;
          }
        }
      };

      // Warm, unmeasured, at the highest level, as a server that has served that many clinicians is: the workers'
      // pools hold as many connections as the run uses, each with its hot statements prepared, and V8 has optimised
      // the request path (its CPU per request falls for the first 10,000-15,000 requests, decision 063). Without it
      // the first level at a count of connections paid for opening and preparing them.
      process.stderr.write(`Warming up for ${WARM_SECONDS} s at ${Math.max(...LEVELS)} connections...\n`);
      await drive(Math.max(...LEVELS), httpStep, WARM_SECONDS);
      await drive(Math.max(...LEVELS), rawStep, WARM_SECONDS);

      const levels: { http: LevelResult; raw: LevelResult; loadAverage: number }[] = [];
      for (const connections of LEVELS) {
        const loadAverage = Math.round(loadavg()[0]! * 100) / 100;
        const sampler = cpuSampler(server.pid);
        const waits = waitSampler(db, databaseName);
        const loop = loopDelaySampler(server.pid, probe.dir);
        const http = await drive(connections, httpStep);
        const cpu = sampler.stop();
        const loopDelay = await loop.stop();
        const waitProfile = await waits.stop();
        const httpResult = summarize(Math.min(connections, USERS), http.samples, http.wallMs);
        httpResult.cpuPerRequestMs = {
          server: Math.round((cpu.serverMs / http.samples.length) * 1000) / 1000,
          postgres: Math.round((cpu.postgresMs / http.samples.length) * 1000) / 1000,
        };
        httpResult.waits = waitProfile;
        httpResult.loopDelay = loopDelay;
        const rawRun = await drive(connections, rawStep);
        const rawResult = summarize(connections, rawRun.samples, rawRun.wallMs);
        levels.push({ http: httpResult, raw: rawResult, loadAverage });
        console.log(`\n${connections} connection(s) (${Math.min(connections, USERS)} users), load average ${loadAverage} before`);
        console.log(
          `  HTTP ${httpResult.requestsPerSecond} req/s, ${httpResult.errors} errors; CPU per request: server ${httpResult.cpuPerRequestMs.server} ms, PostgreSQL ${httpResult.cpuPerRequestMs.postgres} ms`,
        );
        for (const op of OPERATIONS) {
          const h = httpResult.operations[op];
          const r = rawResult.operations[op];
          if (!h) continue;
          console.log(
            `  ${op.padEnd(7)} HTTP n=${String(h.n).padStart(6)} p50 ${h.p50.toFixed(2)} p95 ${h.p95.toFixed(2)} p99 ${h.p99.toFixed(2)} ms, ${h.errors} errors` +
              (r ? ` | raw p50 ${r.p50.toFixed(2)} p95 ${r.p95.toFixed(2)} p99 ${r.p99.toFixed(2)} ms` : ''),
          );
        }
        console.log(`  raw reference ${rawResult.requestsPerSecond} req/s, ${rawResult.errors} errors`);
        const waitText = waitProfile.waits.slice(0, 6).map((w) => `${w.wait} ${w.backends}`);
        console.log(`  PostgreSQL backends (mean active, by wait; ${waitProfile.samples} samples): ${waitText.join('; ')}`);
        console.log(`  event loop delay per worker p50/p99/max ms: ${loopDelay.map((d) => `${d.p50}/${d.p99}/${d.max}`).join(', ')}`);
      }
      for (const u of users) u.client.close();
      for (const c of portal) c.close();
      const file = writeResult('load', 'postgres', startedAt, {
        users: USERS,
        workers: WORKERS,
        mix: MIX,
        secondsPerLevel: SECONDS,
        rate: RATE || null,
        levels,
      });
      console.log(`\nwritten to ${file}`);
    } finally {
      await server.stop();
      probe.dispose();
    }
  } finally {
    await database.dispose();
  }
}

await main();
