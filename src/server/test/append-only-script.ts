// docs/security/audit-append-only.sql as psql would run it, on a test database (append-only.test.ts, and the migrations
// that must carry its rights and triggers over: audit-partition-migration.test.ts).
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import type { DatabaseHandle } from '../db/client';

const SQL_FILE = new URL('../../../docs/security/audit-append-only.sql', import.meta.url);

/** The file as psql would run it with -v app_role=<role> (its only psql meta-commands set that default). */
export function appendOnlyScriptFor(appRole: string): string {
  return readFileSync(SQL_FILE, 'utf8')
    .replace(/^\\if[\s\S]*?^\\endif\s*$/m, '')
    .replaceAll(':"app_role"', `"${appRole}"`);
}

/** Runs a multi-statement SQL text on the database, whichever driver. */
export async function runSqlScript(handle: DatabaseHandle, text: string): Promise<void> {
  const client = (handle.db as unknown as { $client: PGlite | pg.Pool }).$client;
  if (handle.kind === 'pglite') await (client as PGlite).exec(text);
  else await (client as pg.Pool).query(text);
}
