// The month partitions of audit_logs (migration 0054, decision 057) exist before they are needed: the app creates this
// month's and the next AUDIT_PARTITIONS_AHEAD months' at start and again every day, so a row never finds its month
// missing even after months without a restart. There is no default partition to catch a row that did: see decision 057.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/** Months created ahead of the current one. Three: an app left running, or stopped, for a quarter still finds them. */
export const AUDIT_PARTITIONS_AHEAD = 3;

interface Log {
  info: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
}

/** Creates the missing partitions of this month and the months ahead; answers how many it created. */
export async function ensureAuditPartitions(db: Db, ahead: number = AUDIT_PARTITIONS_AHEAD): Promise<number> {
  const result = await db.execute(sql`SELECT nhr_audit_ensure_partitions(${ahead}::int) AS created`);
  return Number((result as unknown as { rows: { created: number }[] }).rows[0]?.created ?? 0);
}

/**
 * Ensures the partitions now (answering once done, so a server stopped for months has its month before it takes
 * requests) and then daily; the answered function stops the timer. A failure is logged as an error.
 */
export async function startAuditPartitions(db: Db, log: Log): Promise<() => void> {
  const run = async (): Promise<void> => {
    try {
      const created = await ensureAuditPartitions(db);
      if (created > 0) log.info({ created }, 'audit log partitions created for the months ahead');
    } catch (err) {
      log.error({ err }, 'the audit log partitions of the months ahead could not be created');
    }
  };
  await run();
  const timer = setInterval(() => void run(), 24 * 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
