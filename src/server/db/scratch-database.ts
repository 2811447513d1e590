// Throw-away databases for tests, journeys and benchmarks, and the migrated templates that make them cheap.
// PostgreSQL: a uniquely named database on the server of DATABASE_URL, optionally copied from a template database
// (`CREATE DATABASE x TEMPLATE tpl`, a file copy on the server), dropped afterwards (CI shares that server with
// whatever ran before). PGlite: an in-memory database, optionally loaded from a snapshot of a migrated one.
// See docs/decisions/010-test-databases.md.
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from './client';

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

const IN_USE = '55006'; // object_in_use: connections are still closing (or, for a template, still open)

async function retryWhileInUse(run: () => Promise<void>): Promise<boolean> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await run();
      return true;
    } catch (err) {
      if ((err as { code?: string }).code !== IN_USE) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return false;
}

async function dropWhenFree(serverUrl: string, name: string): Promise<void> {
  if (await retryWhileInUse(() => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name}`))) return;
  // Killing connections mid-close makes their clients report errors, so it is only the fallback.
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

export interface ScratchOptions {
  /** A database to copy (it must have no open connections); without it the new database is empty. */
  template?: string | undefined;
}

export async function createScratchDatabase(serverUrl: string, prefix: string, options: ScratchOptions = {}): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const { template } = options;
  if (template !== undefined && !IDENTIFIER.test(template)) throw new Error(`not a database name: ${template}`);
  const statement = template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`;
  // A template being copied by another worker at the same instant is reported as in use; the copy is retried.
  if (!(await retryWhileInUse(() => adminQuery(serverUrl, statement)))) {
    throw new Error(`template database ${template ?? ''} stayed in use`);
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => dropWhenFree(serverUrl, name) };
}

/** A migrated PostgreSQL database nobody connects to, to copy with `createScratchDatabase(…, { template })`. */
export async function createMigratedTemplate(serverUrl: string, prefix: string): Promise<ScratchDatabase> {
  const template = await createScratchDatabase(serverUrl, prefix);
  try {
    const handle = await openDatabase({ databaseUrl: template.url, poolSize: 1 });
    try {
      await handle.migrate();
    } finally {
      await handle.close();
    }
  } catch (err) {
    await template.drop();
    throw err;
  }
  return template;
}

export interface PgliteSnapshot {
  /** A file holding the data directory of a migrated embedded database (an uncompressed tarball). */
  file: string;
  remove(): Promise<void>;
}

/** Migrates an in-memory PGlite once and writes its data directory to a temporary file. */
export async function createMigratedPgliteSnapshot(): Promise<PgliteSnapshot> {
  const handle = await openDatabase({ dataDir: 'memory://' });
  try {
    await handle.migrate();
    if (!handle.dumpDataDir) throw new Error('not an embedded database');
    const tarball = await handle.dumpDataDir();
    const file = path.join(tmpdir(), `nhr-migrated-${process.pid}-${randomBytes(4).toString('hex')}.tar`);
    await writeFile(file, tarball);
    return { file, remove: () => rm(file, { force: true }) };
  } finally {
    await handle.close();
  }
}

/** An in-memory PGlite holding a copy of the snapshot in `file`. */
export async function openPgliteSnapshot(file: string): Promise<DatabaseHandle> {
  return openDatabase({ dataDir: 'memory://', loadDataDir: new Blob([await readFile(file)]) });
}
