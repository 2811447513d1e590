// A fingerprint of the database's contents (row count and a hash of every row, per table), for tests that prove a
// refused request changed nothing.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from './sql';

/**
 * Tables whose rows change on any request by design: session activity and throttle or rate-limit counters.
 * Everything else (the record, users, audit trail, security events) must stay exactly as it was.
 */
const VOLATILE = new Set(['sessions', 'user_sessions', 'rate_limits', '__drizzle_migrations']);

export async function databaseFingerprint(db: Db): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    if (VOLATILE.has(name)) continue;
    const [row] = await queryRows<{ n: number; h: string | null }>(
      db,
      sql`SELECT count(*)::int AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS h FROM ${sql.identifier(name)} t`,
    );
    out[name] = `${row?.n ?? 0}:${row?.h ?? ''}`;
  }
  return out;
}
