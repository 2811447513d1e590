// The patient's demographics as a column selection, for the repositories that read them (record access, portal).
import { sql, type SQL } from 'drizzle-orm';
import { survivorIdSql } from './joined-patients';
import { liveGrantSql } from './live-grant';
import { patients } from './schema';

export const patientDetailsColumns = {
  id: patients.id,
  firstName: patients.firstName,
  lastName: patients.lastName,
  dateOfBirth: patients.dateOfBirth,
  sex: patients.sex,
  idNumber: patients.idNumber,
  contactNumber: patients.contactNumber,
  address: patients.address,
  nextOfKin: patients.nextOfKin,
  nextOfKinContact: patients.nextOfKinContact,
};

/** The demographics of the patient row `p` as JSON (RecordPatient), for a statement that reads a record. */
export const PATIENT_JSON = sql`json_build_object('id', p.id, 'firstName', p.first_name, 'lastName', p.last_name,
  'dateOfBirth', p.date_of_birth::text, 'sex', p.sex, 'idNumber', p.id_number, 'contactNumber', p.contact_number,
  'address', p.address, 'nextOfKin', p.next_of_kin, 'nextOfKinContact', p.next_of_kin_contact)`;

/**
 * For a record read that is one statement (docs/decisions/015; the live-grant rule of db/live-grant, DESIGN.md §4): the patient's demographics as JSON (`patient`, no row
 * when the patient does not exist) and whether this user holds a live grant (`granted`), as a query to put in a
 * CTE (each value an SQL expression: a hot statement's slot, db/client). The statement must return nothing of the
 * record unless `granted`. A joined-away patient is never granted; `survivorId` names the record it was joined into, and
 * `survivorIdNumber` its NC number when this user holds a grant there.
 */
export function patientWithGrantSql(userId: SQL, patientId: SQL, nowIso: SQL): SQL {
  return sql`SELECT ${PATIENT_JSON} AS patient,
                    p.replaced_by IS NULL AND ${liveGrantSql(userId, sql`p.id`, nowIso)} AS granted,
                    j.survivor_id AS "survivorId",
                    CASE WHEN ${liveGrantSql(userId, sql`j.survivor_id`, nowIso)}
                         THEN (SELECT s.id_number FROM patients AS s WHERE s.id = j.survivor_id) END AS "survivorIdNumber"
               FROM patients AS p
               LEFT JOIN LATERAL (SELECT ${survivorIdSql(sql`p.id`)} AS survivor_id WHERE p.replaced_by IS NOT NULL) AS j ON true
              WHERE p.id = ${patientId}`;
}
