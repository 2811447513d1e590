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
  /** A driver whose connections are kept alive, at most `connections` of them. */
  driver(connections: number): SearchDriver & { close(): void };
  close(): Promise<void>;
}

function httpSearchDriver(port: number, cookie: string, connections: number): SearchDriver & { close(): void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const search = (target: Target): Promise<PatientSearchResult[]> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(target.input);
      const req = http.request(
        {
          agent,
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/patients/search',
          headers: { cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
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
  return { name: 'HTTP', search, close: () => agent.destroy() };
}

/** The app in this process on a free loopback port, on `db`. */
export async function startHttpSearchServer(db: Db): Promise<HttpSearchServer> {
  const app = await buildApp({ db, config: testConfig(), logger: false });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = new URL(address);
  try {
    const doctor = await createStaffUser(db, { roleId: 3, lastName: 'Bench' });
    const cookie = await signIn(app, doctor.email, doctor.password);
    return { driver: (connections) => httpSearchDriver(Number(port), cookie, connections), close: () => app.close() };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** The server as `npm start` runs it (WORKERS processes) on `databaseUrl`; `db` (same database) creates the doctor. */
export async function startProcessSearchServer(db: Db, databaseUrl: string, workers: number): Promise<HttpSearchServer> {
  const doctor = await createStaffUser(db, { roleId: 3, lastName: 'Bench' });
  const server = await startServerProcess(databaseUrl, workers);
  try {
    const cookie = await signInOverHttp(server.port, doctor.email, doctor.password);
    return { driver: (connections) => httpSearchDriver(server.port, cookie, connections), close: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
