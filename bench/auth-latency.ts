// Rough latency of one staff sign-in (argon2id verify + throttle read + session + bookkeeping) and of an
// authenticated GET /api/auth/user (session read + permission read + user read), over real HTTP on loopback.
// Usage: DATABASE_URL=postgres://... npm run bench:auth   (without DATABASE_URL it measures embedded PGlite)
// A measurement to report, not a test: nothing here asserts a budget.
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/server/app';
import { createTestDatabase } from '../src/server/test/test-database';
import { testConfig } from '../src/server/test/test-app';
import { createStaffUser } from '../src/server/test/staff';

const LOGINS = Number(process.env.LOGINS ?? 40);
const READS = Number(process.env.READS ?? 2000);

function summary(label: string, samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number): string => s[Math.min(s.length - 1, Math.floor(q * s.length))]!.toFixed(2);
  const mean = (s.reduce((a, b) => a + b, 0) / s.length).toFixed(2);
  return `${label.padEnd(28)} n=${String(s.length).padStart(5)}  median ${at(0.5)} ms  p95 ${at(0.95)} ms  mean ${mean} ms`;
}

const database = await createTestDatabase();
const app = await buildApp({ db: database.handle.db, config: testConfig() });
try {
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const user = await createStaffUser(database.handle.db, { roleId: 3 });
  const login = async (): Promise<string> => {
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    if (res.status !== 200) throw new Error(`login answered ${res.status}`);
    await res.arrayBuffer();
    return res.headers.getSetCookie()[0]!.split(';')[0]!;
  };

  for (let i = 0; i < 3; i++) await login(); // warm-up: JIT, connection pool, dummy hash
  const logins: number[] = [];
  let cookie = '';
  for (let i = 0; i < LOGINS; i++) {
    const start = performance.now();
    cookie = await login();
    logins.push(performance.now() - start);
  }

  const reads: number[] = [];
  for (let i = 0; i < READS + 100; i++) {
    const start = performance.now();
    const res = await fetch(`${base}/api/auth/user`, { headers: { cookie } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /api/auth/user answered ${res.status}`);
    if (i >= 100) reads.push(performance.now() - start); // the first 100 warm up
  }

  console.log(`database: ${database.handle.kind}, node ${process.version}, sequential requests over HTTP on loopback`);
  console.log(summary('POST /api/auth/login', logins));
  console.log(summary('GET /api/auth/user (signed in)', reads));
} finally {
  await app.close();
  await database.dispose();
}
