// What the database-failure tests share (statement timeout, a lost connection): one audited search through the app,
// and the count of SEARCH audit rows read on a connection of its own (the app's pool may be the one that failed).
import type { FastifyInstance } from 'fastify';
import pg from 'pg';

/** POST /api/patients/search (name and date of birth) as the signed-in user of `cookie`. */
export const searchOnce = (app: FastifyInstance, cookie: string) =>
  app.inject({
    method: 'POST',
    url: '/api/patients/search',
    headers: { cookie },
    payload: { method: 'name-dob', lastName: 'Shikongo', dateOfBirth: '1990-05-10' },
  });

/** SEARCH audit rows in the database at `url`. */
export async function searchAuditRows(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_logs WHERE action = 'SEARCH'");
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}
