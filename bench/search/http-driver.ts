// The HTTP half of the search benchmark: each target goes as POST /api/patients/search with a doctor's session
// cookie over keep-alive connections (one socket per worker at most). Everything the API adds to the raw SQL is in
// the figure: routing, zod validation, session and permission reads, the audit row, JSON both ways.
// By default the server runs as `npm start` runs it, in its own processes (server-process.ts, WORKERS workers);
// `--server inline` starts the app in the benchmark's own process instead (then load and server share a thread:
// read that ratio as an upper bound).
import http from 'node:http';
import type { PatientSearchResult } from '../../src/contracts/patients';
import { buildApp } from '../../src/server/app';
import type { Db } from '../../src/server/db/client';
import { createStaffUser, signIn } from '../../src/server/test/staff';
import { testConfig } from '../../src/server/test/test-app';
import type { SearchDriver } from './measure';
import { signInOverHttp, startServerProcess } from './server-process';
import type { Target } from './targets';

export interface HttpSearchServer {
  /**
   * A driver whose connections are kept alive, at most `connections` of them: each connection a doctor of its own
   * (as a hospital loads the system), or with `oneUser` every connection the same doctor.
   */
  driver(connections: number, oneUser?: boolean): SearchDriver & { close(): void };
  /** The server's primary process, when it runs in processes of its own (for CPU time from /proc). */
  pid?: number;
  close(): Promise<void>;
}

function httpSearchDriver(port: number, cookies: string[], connections: number, oneUser = false): SearchDriver & { close(): void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const search = (target: Target, worker: number): Promise<PatientSearchResult[]> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(target.input);
      const req = http.request(
        {
          agent,
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/patients/search',
          headers: {
            cookie: cookies[oneUser ? 0 : worker % cookies.length]!,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 200) reject(new Error(`POST /api/patients/search answered ${res.statusCode}: ${text.slice(0, 300)}`));
            else resolve(JSON.parse(text) as PatientSearchResult[]);
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return { name: oneUser ? 'HTTP one user' : 'HTTP', search, close: () => agent.destroy() };
}

/** The app in this process on a free loopback port, on `db`, with `users` signed-in doctors. */
export async function startHttpSearchServer(db: Db, users: number): Promise<HttpSearchServer> {
  const app = await buildApp({ db, config: testConfig(), logger: false });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = new URL(address);
  try {
    const cookies: string[] = [];
    for (let i = 0; i < users; i++) {
      const doctor = await createStaffUser(db, { roleId: 3, lastName: 'Bench' });
      cookies.push(await signIn(app, doctor.email, doctor.password));
    }
    return { driver: (connections, oneUser) => httpSearchDriver(Number(port), cookies, connections, oneUser), close: () => app.close() };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/**
 * The server as `npm start` runs it (WORKERS processes) on `databaseUrl`, with `users` doctors (created through `db`,
 * the same database), each signed in from an address of its own through a trusted proxy (the sign-in throttle
 * counts attempts per address).
 */
export async function startProcessSearchServer(db: Db, databaseUrl: string, workers: number, users: number): Promise<HttpSearchServer> {
  const doctors = [];
  for (let i = 0; i < users; i++) doctors.push(await createStaffUser(db, { roleId: 3, lastName: 'Bench' }));
  const server = await startServerProcess(databaseUrl, workers, { TRUST_PROXY: '127.0.0.1' });
  try {
    const cookies: string[] = [];
    for (const [i, doctor] of doctors.entries())
      cookies.push(await signInOverHttp(server.port, doctor.email, doctor.password, `10.1.${i >> 8}.${i & 255}`));
    return {
      driver: (connections, oneUser) => httpSearchDriver(server.port, cookies, connections, oneUser),
      pid: server.pid,
      close: () => server.stop(),
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
