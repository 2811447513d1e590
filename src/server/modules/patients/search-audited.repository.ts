// The exact searches (NC number; last name + date of birth) with their SEARCH audit row in one statement: one round
// trip, no BEGIN/COMMIT, and one snapshot for the read and the row (issue 11, docs/decisions/015). Each method is a
// named prepared statement, so a connection plans it once.
import { sql, type SQL } from 'drizzle-orm';
import type { PatientSearchResult } from '../../../contracts/patients';
import { auditAppendSql, sqlJson, type StatementAuditEntry } from '../../audit/audit-in-statement';
import { countCte, GATE_COLUMNS, gateCtes, gateName, type GateColumns, type StatementGate } from '../../context/statement-gate';
import { preparedRows, type Db } from '../../db/client';
import { idNumberSearchSql, nameDobSearchSql, withoutEmptyJoin } from './search.repository';

export type ExactSearch =
  { method: 'id-number'; idNumber: string } | { method: 'name-dob'; lastName: string; dateOfBirth: string; limit: number };

function exactQuery(search: ExactSearch): SQL {
  return search.method === 'id-number'
    ? idNumberSearchSql(search.idNumber)
    : nameDobSearchSql(search.lastName, search.dateOfBirth, search.limit);
}

/** The SEARCH row's parts that the statement fills in: the found ids, their number, and the patient when one. */
export interface SearchAudit extends Omit<StatementAuditEntry, 'newValues' | 'patientId'> {
  /** new_values besides patientIds and resultCount. */
  newValues: Record<string, unknown>;
}

/** What else the search's statement does (issue 11, decisions 014 and 059): its gate and the volume check. */
export interface SearchChecks extends StatementGate {
  /**
   * The bulk-search volume check (privacy's searchVolumeCheckSql): an SQL boolean expression of the found ids (an
   * int[] expression), run once by the statement. Its text must depend only on its shape (the statement is
   * prepared under one name).
   */
  volume?: (ids: SQL) => SQL;
}

/** The gate's answer and the found patients (none when the gate was closed: nothing was read or written). */
export interface ExactSearchOutcome {
  gate: GateColumns;
  patients: PatientSearchResult[];
}

/**
 * Runs the search and appends its audit row with the found ids, in one statement. The audit CTE always yields one
 * row and the outer query reads it, so the row is written whether or not anything was found.
 */
export async function findExactAudited(
  db: Db,
  search: ExactSearch,
  audit: SearchAudit,
  checks: SearchChecks = {},
): Promise<ExactSearchOutcome> {
  const entry: StatementAuditEntry = {
    ...audit,
    newValues: {
      ...(audit.newValues as Record<string, never>),
      patientIds: sqlJson(sql`'[' || array_to_string(ids.v, ',') || ']'`),
      resultCount: sqlJson(sql`cardinality(ids.v)`),
    },
    // One result names its patient, so the patient sees the search in their access history.
    patientId: sql`CASE WHEN cardinality(ids.v) = 1 THEN ids.v[1] END`,
  };
  const { volume } = checks;
  // The gate (`lim`: the actor's confirmation, then the rate limit) runs first; the search and its row wait on its
  // `ok`. The check's CTE calls a volatile function, so it is never inlined, and the outer query reads its one row: it
  // runs exactly once, after the search (it reads ids). The limit's count is read by nothing: PostgreSQL runs it last.
  const found = await preparedRows<PatientSearchResult & GateColumns & { ord: number | null; joinedFrom: { idNumber: string } | null }>(
    db,
    `nhr_search_${search.method}_audited${volume ? '_checked' : ''}${gateName(checks)}`,
    sql`WITH ${gateCtes(checks)}
             r AS (SELECT row_number() OVER () AS ord, f.* FROM (${exactQuery(search)}) AS f WHERE (SELECT ok FROM lim)),
             ids AS (SELECT coalesce(array_agg(id ORDER BY ord), '{}'::int[]) AS v FROM r),
             a AS (SELECT ${auditAppendSql(entry)} AS audit_id FROM ids WHERE (SELECT ok FROM lim)),
             v AS (SELECT ${volume ? volume(sql`ids.v`) : sql`false`} AS alerted FROM ids WHERE (SELECT ok FROM lim))${countCte(checks)}
        SELECT ${GATE_COLUMNS}, r.*
          FROM lim LEFT JOIN (a CROSS JOIN v LEFT JOIN r ON true) ON true ORDER BY r.ord`,
  );
  const [first] = found;
  // `lim` always yields its row, so the statement answers at least one.
  const gate: GateColumns = first
    ? { actorOk: first.actorOk, limitOk: first.limitOk, limitResetMs: first.limitResetMs }
    : { actorOk: false, limitOk: false, limitResetMs: null };
  if (!gate.limitOk) return { gate, patients: [] };
  return {
    gate,
    patients: found
      .filter((row) => row.ord !== null)
      .map(({ ord: _ord, actorOk: _actor, limitOk: _ok, limitResetMs: _reset, ...patient }) => withoutEmptyJoin(patient)),
  };
}
