// The exact searches (NC number; last name + date of birth) with their SEARCH audit row in one statement: one round
// trip, no BEGIN/COMMIT, and one snapshot for the read and the row (issue 11, docs/decisions/015). Each method is a
// named prepared statement, so a connection plans it once.
import { sql, type SQL } from 'drizzle-orm';
import type { PatientSummary } from '../../../contracts/patients';
import { auditAppendWithIds, type AuditEntryWithIds } from '../../audit/audit-writer';
import { preparedRows, type Db } from '../../db/client';
import { SUMMARY_COLUMNS } from './search.repository';

export type ExactSearch = { method: 'id-number'; idNumber: string } | { method: 'name-dob'; lastName: string; dateOfBirth: string; limit: number };

function exactQuery(search: ExactSearch): SQL {
  return search.method === 'id-number'
    ? sql`SELECT ${SUMMARY_COLUMNS} FROM patients WHERE id_number = ${search.idNumber}`
    : sql`SELECT ${SUMMARY_COLUMNS} FROM patients
           WHERE last_name_norm = nhr_norm(${search.lastName}) AND date_of_birth = ${search.dateOfBirth}::date
           ORDER BY first_name_norm, id LIMIT ${search.limit}`;
}

/**
 * Runs the search and appends `audit` with the found ids, in one statement. The audit CTE always yields one row,
 * so the row is written whether or not anything was found (a volatile function's CTE is never inlined or skipped:
 * the outer query reads it).
 */
export async function findExactAudited(db: Db, search: ExactSearch, audit: AuditEntryWithIds): Promise<PatientSummary[]> {
  const found = await preparedRows<PatientSummary & { ord: number | null }>(
    db,
    `nhr_search_${search.method}_audited`,
    sql`WITH r AS (SELECT row_number() OVER () AS ord, f.* FROM (${exactQuery(search)}) AS f),
             a AS (SELECT ${auditAppendWithIds(audit, sql`(SELECT coalesce(array_agg(id ORDER BY ord), '{}'::int[]) FROM r)`)} AS audit_id)
        SELECT r.* FROM a LEFT JOIN r ON true ORDER BY r.ord`,
  );
  return found.filter((row) => row.ord !== null).map(({ ord: _ord, ...patient }) => patient);
}
