// GET /api/patients/{id} in one query (decision 048): the patient, whether this user may read it, and its joins: for a
// record joined away, the record it now belongs to (and whether this user holds a grant there); for any other, the
// records joined into it (live joins, through chains).
import { sql, type SQL } from 'drizzle-orm';
import type { JoinedRecord, RecordPatient } from '../../../contracts/access';
import type { PatientSummary } from '../../../contracts/patients';
import type { DbOrTx } from '../../db/client';
import { linkedIdsSql, survivorIdSql } from '../../db/joined-patients';
import { liveGrantSql } from '../../db/live-grant';

export interface PatientReadRow {
  patient: RecordPatient;
  granted: boolean;
  /** The record this one was joined into, or null. */
  survivor: PatientSummary | null;
  survivorGranted: boolean;
  replaces: JoinedRecord[];
}

const summaryJson = (alias: string) => {
  const a = sql.raw(alias);
  return sql`json_build_object('id', ${a}.id, 'firstName', ${a}.first_name, 'lastName', ${a}.last_name, 'dateOfBirth', ${a}.date_of_birth::text,
                               'idNumber', ${a}.id_number, 'sex', ${a}.sex, 'address', ${a}.address)`;
};

export async function findPatientRead(db: DbOrTx, userId: string, patientId: number, now: Date): Promise<PatientReadRow | null> {
  const grantOn = (id: SQL) => liveGrantSql(userId, id, now.toISOString());
  const result = (await db.execute(sql`
    SELECT json_build_object('id', p.id, 'firstName', p.first_name, 'lastName', p.last_name, 'dateOfBirth', p.date_of_birth::text,
                             'sex', p.sex, 'idNumber', p.id_number, 'contactNumber', p.contact_number, 'address', p.address,
                             'nextOfKin', p.next_of_kin, 'nextOfKinContact', p.next_of_kin_contact) AS patient,
           p.replaced_by IS NULL AND ${grantOn(sql`p.id`)} AS granted,
           (SELECT ${summaryJson('s')} FROM patients AS s WHERE s.id = j.survivor_id) AS survivor,
           j.survivor_id IS NOT NULL AND ${grantOn(sql`j.survivor_id`)} AS "survivorGranted",
           CASE WHEN p.replaced_by IS NULL THEN
             (SELECT coalesce(json_agg(json_build_object('id', m.id, 'idNumber', m.id_number, 'joinedAt', m.replaced_at) ORDER BY m.replaced_at, m.id), '[]')
                FROM patients AS m WHERE m.id IN (${linkedIdsSql(sql`p.id`)}) AND m.id <> p.id)
           ELSE '[]' END AS replaces
      FROM patients AS p
      LEFT JOIN LATERAL (SELECT ${survivorIdSql(sql`p.id`)} AS survivor_id WHERE p.replaced_by IS NOT NULL) AS j ON true
     WHERE p.id = ${patientId}`)) as unknown as { rows: (Omit<PatientReadRow, 'replaces'> & { replaces: JoinedRecord[] | string })[] };
  const [row] = result.rows;
  if (!row) return null;
  const replaces = (typeof row.replaces === 'string' ? (JSON.parse(row.replaces) as JoinedRecord[]) : row.replaces).map((r) => ({
    ...r,
    joinedAt: r.joinedAt ? new Date(r.joinedAt).toISOString() : null,
  }));
  return { ...row, replaces };
}
