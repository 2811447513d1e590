// Throw-away PostgreSQL databases for tests, journeys and benchmarks: created with a unique name on the server of
// DATABASE_URL and dropped afterwards (CI shares that server with whatever ran before).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  name: string;
  /** The connection string of the new database. */
  url: string;
  /** Drops the database once its connections are gone (forcing them closed only as a last resort). */
  drop(): Promise<void>;
}

export async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  client.on('error', () => undefined); // a connection the server ends is reported by the query itself
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const IN_USE = '55006'; // object_in_use: connections are still closing

async function dropWhenFree(serverUrl: string, name: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name}`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== IN_USE) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  // Killing connections mid-close makes their clients report errors, so it is only the fallback.
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => dropWhenFree(serverUrl, name) };
}
