// What a device may keep offline (issue 27, decision 061): the facility's appointments of the next days, on the
// (facility, date) index of migration 0060, and the patients this user holds a live grant for that was made in the
// last hours (no grant, no offline copy). Read in one statement each, inside the offline set's audited transaction.
import { sql } from 'drizzle-orm';
import type { OfflineAppointment, OfflinePatient } from '../../../contracts/offline';
import type { DbOrTx } from '../../db/client';

const rows = async <T>(tx: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> =>
  ((await tx.execute(query)) as unknown as { rows: T[] }).rows;

/** The facility's current appointments (not entered in error) from `from` to `to` (dates, inclusive), of live records. */
export async function facilityAppointments(tx: DbOrTx, facility: string, from: string, to: string): Promise<OfflineAppointment[]> {
  return rows<OfflineAppointment>(
    tx,
    sql`SELECT a.patient_id AS "patientId", p.first_name || ' ' || p.last_name AS "patientName", p.id_number AS "idNumber",
               a.id AS "appointmentId", to_char(a.date, 'YYYY-MM-DD') AS date, a.time, a.type AS reason, a.status
          FROM appointments AS a JOIN patients AS p ON p.id = a.patient_id
         WHERE a.facility = ${facility} AND a.date BETWEEN ${from}::date AND ${to}::date
           AND a.entered_in_error_at IS NULL AND p.replaced_by IS NULL
         ORDER BY a.date, a.time NULLS LAST, a.id
         LIMIT 2000`,
  );
}

/** The live records this user holds a live grant for, made since `since`; each with when its latest grant ends. */
export async function grantedPatients(tx: DbOrTx, userId: string, now: Date, since: Date): Promise<OfflinePatient[]> {
  const found = await rows<Omit<OfflinePatient, 'grantExpiresAt'> & { grantExpiresAt: Date | string }>(
    tx,
    sql`SELECT p.id, p.first_name AS "firstName", p.last_name AS "lastName", p.id_number AS "idNumber",
               to_char(p.date_of_birth, 'YYYY-MM-DD') AS "dateOfBirth", p.sex, g.expires AS "grantExpiresAt"
          FROM (SELECT patient_id, max(expires_at) AS expires FROM access_grants
                 WHERE user_id = ${userId} AND expires_at > ${now.toISOString()}::timestamptz
                   AND granted_at >= ${since.toISOString()}::timestamptz
                 GROUP BY patient_id) AS g
          JOIN patients AS p ON p.id = g.patient_id AND p.replaced_by IS NULL
         ORDER BY p.id`,
  );
  return found.map((p) => ({ ...p, grantExpiresAt: new Date(p.grantExpiresAt).toISOString() }));
}
