// The HTTP half of the search benchmark: the real app, started in this process on a free loopback port on the same
// database, with a doctor signed in once; each target goes as POST /api/patients/search with that session cookie
// over keep-alive connections (one socket per worker at most). Everything the API adds to the raw SQL is in the
// figure: routing, zod validation, session and permission reads, the transaction and the audit row, JSON both ways.
// The load generator shares the process (and the machine's cores) with the server: read the ratio as an upper bound.
import http from 'node:http';
import type { PatientSearchResult } from '../../src/contracts/patients';
import { buildApp } from '../../src/server/app';
import type { Db } from '../../src/server/db/client';
import { createStaffUser, signIn } from '../../src/server/test/staff';
import { testConfig } from '../../src/server/test/test-app';
import type { SearchDriver } from './measure';
import type { Target } from './targets';

export interface HttpSearchServer {
  /** A driver whose connections are kept alive, at most `connections` of them. */
  driver(connections: number): SearchDriver & { close(): void };
  close(): Promise<void>;
}

export async function startHttpSearchServer(db: Db): Promise<HttpSearchServer> {
  const app = await buildApp({ db, config: testConfig(), logger: false });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = new URL(address);
  try {
    const doctor = await createStaffUser(db, { roleId: 3, lastName: 'Bench' });
    const cookie = await signIn(app, doctor.email, doctor.password);
    return {
      driver(connections) {
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
      },
      close: () => app.close(),
    };
  } catch (error) {
    await app.close();
    throw error;
  }
}
