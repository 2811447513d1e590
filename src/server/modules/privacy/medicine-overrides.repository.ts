// The medicine-check overrides for the privacy/quality review (decision 045): each warning a clinician went ahead
// over, with who, when, the patient, what was stored and met, the rule, the knowledge version and the reason.
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

const rowsOf = async <T>(db: DbOrTx, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

export interface OverrideRow {
  id: number;
  at: string;
  userId: string;
  userName: string;
  facility: string | null;
  patientId: number;
  patientName: string | null;
  kind: string;
  itemId: number;
  code: string;
  tier: string;
  params: Record<string, unknown>;
  reason: string | null;
}

/** A page of overrides, newest first, and how many there are. */
export async function selectOverrides(db: DbOrTx, limit: number, offset: number): Promise<{ rows: OverrideRow[]; total: number }> {
  const rows = await rowsOf<OverrideRow>(
    db,
    sql`SELECT o.id, to_char(o.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, o.user_id AS "userId",
        o.by_name AS "userName", u.facility, o.patient_id AS "patientId",
        CASE WHEN p.id IS NULL THEN NULL ELSE p.first_name || ' ' || p.last_name END AS "patientName",
        o.kind, o.item_id AS "itemId", o.code, o.tier, o.params, o.reason
      FROM medicine_check_overrides o
      LEFT JOIN users u ON u.id = o.user_id
      LEFT JOIN patients p ON p.id = o.patient_id
      ORDER BY o.at DESC, o.id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  const [t] = await rowsOf<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM medicine_check_overrides`);
  return { rows, total: t?.n ?? 0 };
}
