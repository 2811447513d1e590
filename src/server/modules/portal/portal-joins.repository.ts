// The patient's joined records (issue 24 item 7, decision 048): the live joins of their record (through chains), with
// where each record was registered, and the privacy-review case a patient opens by reporting a join as wrong: one
// security event PATIENT_JOIN_REPORTED per join and patient, shown among the reviewers' alerts.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { linkedIdsSql } from '../../db/joined-patients';

const rowsOf = async <T>(db: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

export const JOIN_REPORTED = 'PATIENT_JOIN_REPORTED';

/** Where patient `id` was registered: the facility of its CREATE audit row. */
const registeredAt = (id: ReturnType<typeof sql>) =>
  sql`(SELECT a.facility FROM audit_logs AS a WHERE a.patient_id = ${id} AND a.action = 'CREATE' AND a.resource_type = 'PATIENT'
        ORDER BY a.id LIMIT 1)`;

const reportedBy = (patientId: number) =>
  sql`EXISTS (SELECT 1 FROM security_events AS e WHERE e.event_type = ${JOIN_REPORTED} AND e.user_id IS NULL
                 AND e.metadata ->> 'joinId' = j.id::text AND e.metadata ->> 'patientId' = ${String(patientId)})`;

export interface JoinNoticeRow {
  id: number;
  joinedAt: string | null;
  survivorFacility: string | null;
  mergedFacility: string | null;
  reported: boolean;
  survivorId: number;
  mergedId: number;
}

/** The live joins of the patient's record (every record joined into theirs, through chains), newest first. */
export async function selectJoinsOf(db: DbOrTx, patientId: number, joinId?: number): Promise<JoinNoticeRow[]> {
  return rowsOf<JoinNoticeRow>(
    db,
    sql`SELECT j.id, to_char(j.joined_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "joinedAt",
               ${registeredAt(sql`j.survivor_id`)} AS "survivorFacility", ${registeredAt(sql`j.merged_id`)} AS "mergedFacility",
               ${reportedBy(patientId)} AS reported, j.survivor_id AS "survivorId", j.merged_id AS "mergedId"
          FROM patient_joins AS j
         WHERE j.status = 'joined' AND j.merged_id IN (${linkedIdsSql(sql`${patientId}::int`)}) AND j.merged_id <> ${patientId}
           ${joinId === undefined ? sql`` : sql`AND j.id = ${joinId}`}
         ORDER BY j.joined_at DESC NULLS LAST, j.id DESC`,
  );
}

/** Locks the join while its report is checked and written, so two reports at once open one case. */
export async function lockJoin(db: DbOrTx, joinId: number): Promise<void> {
  await db.execute(sql`SELECT id FROM patient_joins WHERE id = ${joinId} FOR UPDATE`);
}

/** The case this patient opened about this join, if any. */
export async function findReport(db: DbOrTx, joinId: number, patientId: number): Promise<number | null> {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`SELECT e.id FROM security_events AS e WHERE e.event_type = ${JOIN_REPORTED} AND e.user_id IS NULL
          AND e.metadata ->> 'joinId' = ${String(joinId)} AND e.metadata ->> 'patientId' = ${String(patientId)} ORDER BY e.id LIMIT 1`,
  );
  return row?.id ?? null;
}

export interface JoinReport {
  join: JoinNoticeRow;
  patientId: number;
  ip: string;
  userAgent: string | null;
}

/** Opens the case: HIGH, no staff user, naming the join and both records. */
export async function insertReport(db: DbOrTx, r: JoinReport): Promise<number> {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`INSERT INTO security_events (user_id, event_type, severity, description, ip_address, user_agent, metadata)
        VALUES (NULL, ${JOIN_REPORTED}, 'HIGH', ${`The patient reported that join ${r.join.id} (record ${r.join.mergedId} into record ${r.join.survivorId}) is wrong`},
                ${r.ip}, ${r.userAgent},
                jsonb_build_object('joinId', ${r.join.id}::int, 'survivorId', ${r.join.survivorId}::int, 'mergedId', ${r.join.mergedId}::int,
                                   'patientId', ${r.patientId}::int, 'count', 1, 'threshold', 0, 'minutes', 0))
        RETURNING id`,
  );
  return row!.id;
}
