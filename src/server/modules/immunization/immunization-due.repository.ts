// The defaulter list's index (decision 044): what the schedule needs of patients to place their doses (date of birth,
// sex, vaccine rows that count), rewriting their outstanding doses, and the list of one facility read from it.
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { VaccineDose } from './schedule-engine';

export interface DuePatient {
  patientId: number;
  dateOfBirth: string | null;
  sex: string;
  vaccines: (VaccineDose & { facility: string })[];
}

export interface DueRow {
  patientId: number;
  dose: string;
  name: string;
  facility: string;
  dueDate: string;
  overdueFrom: string;
  missedFrom: string | null;
  lastVisit: string;
}

const rowsOf = async <T>(db: DbOrTx, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** Patients with their vaccine rows that count (entered-in-error rows left out; a sealed row counts, as for safety). */
export async function selectDuePatients(db: DbOrTx, patientIds: readonly number[]): Promise<DuePatient[]> {
  if (patientIds.length === 0) return [];
  return rowsOf<DuePatient>(
    db,
    sql`SELECT p.id AS "patientId", p.date_of_birth::text AS "dateOfBirth", p.sex,
               coalesce((SELECT json_agg(json_build_object('id', v.id, 'vaccine', v.vaccine, 'code', v.code, 'codeSystem', v.code_system,
                                                           'date', v.date::text, 'dose', v.dose, 'facility', v.facility) ORDER BY v.date, v.id)
                           FROM vaccines v WHERE v.patient_id = p.id AND v.entered_in_error_at IS NULL), '[]'::json) AS vaccines
          FROM patients p WHERE p.id = ANY(${sql.raw(`'{${patientIds.map((id) => Math.trunc(id)).join(',')}}'`)}::int[])`,
  );
}

/** The next batch of patient ids that have vaccine rows, after `afterId` (for rewriting everyone's doses). */
export async function selectVaccinatedPatientIds(db: DbOrTx, afterId: number, limit: number): Promise<number[]> {
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`SELECT DISTINCT patient_id AS id FROM vaccines WHERE patient_id > ${afterId} ORDER BY 1 LIMIT ${limit}`,
  );
  return rows.map((r) => r.id);
}

/** Replaces the outstanding doses of these patients with `rows`. */
export async function replaceDueRows(db: DbOrTx, patientIds: readonly number[], rows: readonly DueRow[]): Promise<void> {
  if (patientIds.length === 0) return;
  const ids = sql.raw(`'{${patientIds.map((id) => Math.trunc(id)).join(',')}}'`);
  await db.execute(sql`DELETE FROM immunization_due WHERE patient_id = ANY(${ids}::int[])`);
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    await db.execute(
      sql`INSERT INTO immunization_due (patient_id, dose, name, facility, due_date, overdue_from, missed_from, last_visit)
          SELECT * FROM json_to_recordset(${JSON.stringify(chunk)}::json)
            AS r("patientId" int, dose varchar, name varchar, facility varchar, "dueDate" date, "overdueFrom" date, "missedFrom" date, "lastVisit" date)`,
    );
  }
}

export interface DefaulterRow {
  patientId: number;
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
  contactNumber: string | null;
  nextOfKin: string;
  nextOfKinContact: string;
  lastVisit: string;
  lastFacility: string;
  overdue: { dose: string; name: string; dueDate: string }[];
}

/**
 * The children of `facility` (their last vaccine visit was there) with a dose due from..to that is overdue on
 * `today` and still given: one range scan of immunization_due_facility_idx, grouped per child, then the patients'
 * contact details by primary key. At most `limit` children, oldest due date first.
 */
export async function selectDefaulters(
  db: DbOrTx,
  q: { facility: string; from: string; to: string; today: string; limit: number },
): Promise<DefaulterRow[]> {
  return rowsOf<DefaulterRow>(
    db,
    sql`WITH d AS (
          SELECT patient_id, min(due_date) AS first_due, max(last_visit) AS last_visit,
                 json_agg(json_build_object('dose', dose, 'name', name, 'dueDate', due_date::text) ORDER BY due_date, dose) AS overdue
            FROM immunization_due
           WHERE facility = ${q.facility} AND due_date BETWEEN ${q.from}::date AND ${q.to}::date
             AND overdue_from <= ${q.today}::date AND (missed_from IS NULL OR missed_from > ${q.today}::date)
           GROUP BY patient_id
           ORDER BY first_due, patient_id
           LIMIT ${q.limit})
        SELECT p.id AS "patientId", p.first_name AS "firstName", p.last_name AS "lastName", p.date_of_birth::text AS "dateOfBirth",
               p.contact_number AS "contactNumber", p.next_of_kin AS "nextOfKin", p.next_of_kin_contact AS "nextOfKinContact",
               d.last_visit::text AS "lastVisit", ${q.facility}::text AS "lastFacility", d.overdue
          FROM d JOIN patients p ON p.id = d.patient_id
         ORDER BY d.first_due, p.id`,
  );
}
