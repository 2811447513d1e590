// The exact searches (NC number; last name + date of birth) with their SEARCH audit row in one statement: one round
// trip, no BEGIN/COMMIT, and one snapshot for the read and the row (issue 11, docs/decisions/015). Each shape of the
// statement (the method, the gate, the volume check and the audit row's keys) is built and rendered once, then run as
// a named prepared statement with the request's values (db/client hotStatement): building the statement with drizzle
// on every search cost about as much CPU as the rest of the request's Node side (issue 29 item 3).
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import {
  auditAppendSlotted,
  auditSlotValues,
  newValueSlots,
  sqlJson,
  type AuditSlots,
  type StatementAuditEntry,
} from '../../audit/audit-in-statement';
import {
  countCte,
  GATE_COLUMNS,
  gateCtes,
  gateName,
  gateSlotted,
  gateSlotValues,
  type GateColumns,
  type GateShape,
  type GateSlots,
  type StatementGate,
} from '../../context/statement-gate';
import { hotStatement, slotValues, type Db, type Slots, type SlotValues } from '../../db/client';
import { bulkSearchCheckSlotted, volumeSlotValues, type BulkSearchCheck, type VolumeSlots } from '../privacy/alerts.repository';
import { idNumberSearchSql, nameDobSearchSql, summaryJsonOf } from './search.repository';

export type ExactSearch =
  { method: 'id-number'; idNumber: string } | { method: 'name-dob'; lastName: string; dateOfBirth: string; limit: number };

/** The SEARCH row's parts that the statement fills in: the found ids, their number, and the patient when one. */
export interface SearchAudit extends Omit<StatementAuditEntry, 'newValues' | 'patientId'> {
  /** new_values besides patientIds and resultCount. */
  newValues: Record<string, unknown>;
}

/** What else the search's statement does (issue 11, decisions 014 and 059): its gate and the volume check. */
export interface SearchChecks extends StatementGate {
  /** The bulk-search volume check's values (privacy's searchVolumeCheckOf): run once by the statement on the found ids. */
  volume?: BulkSearchCheck;
}

/** The gate's answer and the found patients (none when the gate was closed: nothing was read or written). */
export interface ExactSearchOutcome {
  gate: GateColumns;
  /** The found patients as the API answers them (PatientSearchResult[]), JSON built by the statement. */
  answer: string;
}

type Raw = Record<string, unknown>;
/** The search's own values (one method's of them per statement). */
interface SearchSlots {
  idNumber: string;
  lastName: string;
  dateOfBirth: string;
  resultLimit: number;
}
type AnswerRow = GateColumns & { answer: string };

/** What the statement's text depends on: the method, the audit row's own keys, the volume check and the gate. */
interface Shape extends GateShape {
  method: ExactSearch['method'];
  /** The keys of the audit row's new_values besides patientIds and resultCount, sorted: each is a slot. */
  keys: string[];
  volume: boolean;
}

/** The search's statement over slots: the gate, the search, its audit row with the found ids, the volume check. */
function searchSql(slot: Slots<Raw>, shape: Shape): SQL {
  const gate = gateSlotted(slot as Slots<GateSlots>, shape);
  const search = slot as Slots<SearchSlots>;
  const query =
    shape.method === 'id-number'
      ? idNumberSearchSql(search.idNumber)
      : nameDobSearchSql(search.lastName, search.dateOfBirth, search.resultLimit);
  // The audit row's own values are canonical JSON texts bound per request; the found ids are the statement's.
  const newValues = {
    ...Object.fromEntries(shape.keys.map((key) => [key, sqlJson(sql`${slot[`value_${key}`] ?? sql`NULL`}::text`)])),
    patientIds: sqlJson(sql`'[' || array_to_string(ids.v, ',') || ']'`),
    resultCount: sqlJson(sql`cardinality(ids.v)`),
  };
  // One result names its patient, so the patient sees the search in their access history.
  const patientId = sql`CASE WHEN cardinality(ids.v) = 1 THEN ids.v[1] END`;
  const volume = shape.volume ? bulkSearchCheckSlotted(slot as Slots<VolumeSlots>, sql`ids.v`) : sql`false`;
  // The gate (`lim`: the actor's confirmation, then the rate limit) runs first; the search and its row wait on its
  // `ok`. The check's CTE calls a volatile function, so it is never inlined, and the outer query reads its one row: it
  // runs exactly once, after the search (it reads ids). The limit's count is read by nothing: PostgreSQL runs it last.
  // One row answers: the gate's columns and the found patients as the API's JSON answer (issue 29: no rows to parse
  // and no answer to encode on the Node side).
  return sql`WITH ${gateCtes(gate)}
             r AS (SELECT row_number() OVER () AS ord, f.* FROM (${query}) AS f WHERE (SELECT ok FROM lim)),
             ids AS (SELECT coalesce(array_agg(id ORDER BY ord), '{}'::int[]) AS v FROM r),
             a AS (SELECT ${auditAppendSlotted(slot as Slots<AuditSlots>, newValues, patientId)} AS audit_id FROM ids WHERE (SELECT ok FROM lim)),
             v AS (SELECT ${volume} AS alerted FROM ids WHERE (SELECT ok FROM lim))${countCte(gate)}
        SELECT ${GATE_COLUMNS}, (SELECT coalesce(json_agg(${summaryJsonOf('r')} ORDER BY r.ord), '[]')::text FROM r) AS answer
          FROM lim LEFT JOIN (a CROSS JOIN v) ON true`;
}

/** The statement of each shape, built once. */
type Statement = (db: Db, values: SlotValues<Raw>) => Promise<AnswerRow[]>;
const STATEMENTS = new Map<string, Statement>();
function statementOf(shape: Shape): Statement {
  const base = `nhr_search_${shape.method}_audited${shape.volume ? '_checked' : ''}${gateName(shape)}`;
  const key = `${base}:${shape.keys.join(',')}`;
  let statement = STATEMENTS.get(key);
  if (!statement) {
    const name = `${base}_${createHash('sha256').update(shape.keys.join(',')).digest('hex').slice(0, 8)}`;
    STATEMENTS.set(key, (statement = hotStatement<Raw, AnswerRow>(name, (slot) => searchSql(slot, shape))));
  }
  return statement;
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
  const { newValues } = audit;
  const keys = Object.keys(newValues)
    .filter((key) => newValues[key] !== undefined && key !== 'patientIds' && key !== 'resultCount')
    .sort();
  const shape: Shape = {
    method: search.method,
    keys,
    volume: Boolean(checks.volume),
    limit: Boolean(checks.limitSlots),
    actor: Boolean(checks.actorSlots),
  };
  const values = slotValues(
    search.method === 'id-number'
      ? { idNumber: search.idNumber }
      : { lastName: search.lastName, dateOfBirth: search.dateOfBirth, resultLimit: search.limit },
    newValueSlots(newValues, keys),
    auditSlotValues(audit),
    checks.volume ? volumeSlotValues(checks.volume) : {},
    ...gateSlotValues(checks),
  );
  const [row] = await statementOf(shape)(db, values);
  // `lim` always yields its row, so the statement answers exactly one.
  const gate: GateColumns = row
    ? { actorOk: row.actorOk, limitOk: row.limitOk, limitResetMs: row.limitResetMs }
    : { actorOk: false, limitOk: false, limitResetMs: null };
  return { gate, answer: gate.limitOk && row ? row.answer : '[]' };
}
