// The medicine-check alerts shown (medicine_check_alerts) and the overrides (medicine_check_overrides) counted by
// month and facility for the monthly report (decision 045). The facility is the user's (users.facility).
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { medicineCheckAlerts } from '../../db/schema';

const rowsOf = async <T>(db: DbOrTx, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

export interface ShownAlert {
  code: string;
  tier: string;
  rule: string | null;
  knowledgeVersion: string | null;
}

/** One row per alert shown to `userId` at `at` (after the refused change rolled back, or with a CDS Hooks answer). */
export async function insertShownAlerts(
  db: DbOrTx,
  by: { userId: string; at: Date; channel: string },
  alerts: readonly ShownAlert[],
): Promise<void> {
  if (alerts.length === 0) return;
  await db.insert(medicineCheckAlerts).values(alerts.map((a) => ({ ...a, ...by })));
}

/** The report's period: [from, before) in UTC, and an optional facility. */
export interface ReportPeriod {
  from: Date;
  before: Date;
  facility: string | undefined;
}

export interface MonthCount {
  month: string;
  facility: string | null;
  tier: string;
  n: number;
}

const facilityIs = (p: ReportPeriod): SQL => (p.facility === undefined ? sql`true` : sql`u.facility = ${p.facility}`);

/** Rows per month, facility and tier of a table with `at`, `user_id` and `tier` (alerts shown, or overrides). */
const countsOf = (db: DbOrTx, table: 'medicine_check_alerts' | 'medicine_check_overrides', p: ReportPeriod): Promise<MonthCount[]> =>
  rowsOf<MonthCount>(
    db,
    sql`SELECT to_char(x.at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, u.facility, x.tier, count(*)::int AS n
      FROM ${sql.identifier(table)} x LEFT JOIN users u ON u.id = x.user_id
      WHERE x.at >= ${p.from.toISOString()} AND x.at < ${p.before.toISOString()} AND ${facilityIs(p)}
      GROUP BY 1, 2, 3`,
  );

/** Alerts shown per month, facility and tier. */
export const shownCounts = (db: DbOrTx, p: ReportPeriod): Promise<MonthCount[]> => countsOf(db, 'medicine_check_alerts', p);

/** Warnings overridden per month, facility and tier. */
export const overriddenCounts = (db: DbOrTx, p: ReportPeriod): Promise<MonthCount[]> => countsOf(db, 'medicine_check_overrides', p);

export interface ReasonCount {
  month: string;
  facility: string | null;
  code: string;
  reason: string;
  count: number;
}

/** The override reasons as written, most frequent first; `limit + 1` rows so the caller knows when it is cut. */
export const reasonCounts = (db: DbOrTx, p: ReportPeriod, limit: number): Promise<ReasonCount[]> =>
  rowsOf<ReasonCount>(
    db,
    sql`SELECT to_char(o.at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, u.facility, o.code, o.reason, count(*)::int AS count
      FROM medicine_check_overrides o LEFT JOIN users u ON u.id = o.user_id
      WHERE o.reason IS NOT NULL AND o.at >= ${p.from.toISOString()} AND o.at < ${p.before.toISOString()} AND ${facilityIs(p)}
      GROUP BY 1, 2, 3, 4
      ORDER BY 1 DESC, 5 DESC, 4
      LIMIT ${limit + 1}`,
  );
