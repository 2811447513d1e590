// The live-grant rule (DESIGN.md §4, decision 059), defined once: a user may open a patient's record while they hold a
// grant for that patient that has not expired. Every grant check in SQL uses this: the record open and the delta read
// (patientWithGrantSql), the grant check of reads and changes (access.repository), the demographics read
// (patient-read.repository). It lives in the db layer because the record's one-statement reads embed it.
import { sql, type SQL } from 'drizzle-orm';

/**
 * An SQL boolean: `userId` holds a live grant for `patientId` as of `nowIso` (each a bound value or an SQL expression,
 * such as a hot statement's slot or a column). Reads the (user_id, patient_id, expires_at) grant index.
 */
export const liveGrantSql = (userId: SQL | string, patientId: SQL | number, nowIso: SQL | string): SQL =>
  sql`EXISTS (SELECT 1 FROM access_grants AS g WHERE g.user_id = ${userId} AND g.patient_id = ${patientId}
                 AND g.expires_at > ${nowIso}::timestamptz)`;
