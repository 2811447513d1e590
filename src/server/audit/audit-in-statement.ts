// An audit row appended by the statement that does the read or change it records (issue 11, decision 015): one
// round trip, no BEGIN/COMMIT, and the row can name what only that statement knows (the ids a search found, the id
// of an inserted grant, the sizes of the lists read). nhr_audit_append_sql (migration 0023) hashes exactly what the
// verifier recomputes from the stored row: the application builds the canonical JSON around the values only the
// database knows, and the statement builds the canonical text of new_values from literal parts and SQL values.
import { sql, type SQL } from 'drizzle-orm';
import type { AuditEntry } from './audit-writer';
import { auditRowFields, jsonText } from './audit-writer';
import { bindSlots, type Slots } from '../db/client';
import { hashedFields } from './audit-hash';
import { canonicalJson, fillSegments, segmentPlan, toJsonValue, type JsonValue, type SegmentPlan } from './canonical-json';

const IN_SQL: unique symbol = Symbol('computed in the statement');

/** A JSON value the statement computes: `text` is an SQL expression yielding its canonical JSON text. */
export interface SqlJson {
  readonly [IN_SQL]: SQL;
}

/** `text`: an SQL expression whose value is canonical JSON (an integer's text, `'[' || array_to_string(ids, ',') || ']'`). */
export const sqlJson = (text: SQL): SqlJson => ({ [IN_SQL]: text });

export type StatementJson = JsonValue | SqlJson | StatementJson[] | { [key: string]: StatementJson };

const isSqlJson = (v: unknown): v is SqlJson => typeof v === 'object' && v !== null && IN_SQL in v;

/** The canonical JSON text of `value` as an SQL text expression: literal parts are bound parameters. */
export function canonicalSql(value: StatementJson): SQL {
  const parts: (string | SQL)[] = [];
  const literal = (text: string): void => {
    const last = parts.length - 1;
    if (last >= 0 && typeof parts[last] === 'string') parts[last] += text;
    else parts.push(text);
  };
  const walk = (v: StatementJson): void => {
    if (isSqlJson(v)) parts.push(v[IN_SQL]);
    else if (Array.isArray(v)) {
      literal('[');
      v.forEach((item, i) => {
        if (i > 0) literal(',');
        walk(item);
      });
      literal(']');
    } else if (v !== null && typeof v === 'object') {
      literal('{');
      // Keys whose value is undefined are left out, as JSON.stringify leaves them out.
      Object.keys(v)
        .filter((key) => (v as Record<string, unknown>)[key] !== undefined)
        .sort()
        .forEach((key, i) => {
          literal(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`);
          walk((v as Record<string, StatementJson>)[key]!);
        });
      literal('}');
    } else literal(canonicalJson(toJsonValue(v)));
  };
  walk(value);
  return sql.join(
    parts.map((p) => (typeof p === 'string' ? sql`${p}::text` : sql`(${p})::text`)),
    sql` || `,
  );
}

/** An audit entry whose new_values and patient id the statement may compute. */
export interface StatementAuditEntry extends Omit<AuditEntry, 'newValues' | 'patientId'> {
  newValues: StatementJson;
  /** An SQL integer expression, or a known id, or null. */
  patientId: SQL | number | null;
}

const ROW_HOLES = ['chain', 'chainSeq', 'id', 'newValues', 'patientId', 'timestamp'] as const;

/**
 * The SQL call that appends `entry`: put it in the statement that does the work (in a CTE the outer query reads,
 * so it runs exactly once). Its text depends only on the shape of `entry.newValues`, so the statement around it
 * can be a named, prepared one.
 */
export function auditAppendSql(entry: StatementAuditEntry): SQL {
  const patientId = entry.patientId === null || typeof entry.patientId === 'number' ? sql`${entry.patientId}` : entry.patientId;
  return auditAppendSlotted(bindSlots(auditSlotValues(entry)), entry.newValues, patientId);
}

/** The per-request values of an in-statement audit row in a hot statement (db/client hotStatement). */
export interface AuditSlots {
  auditS0: string;
  auditS1: string;
  auditS2: string;
  auditS3: string;
  auditS4: string;
  auditS5: string;
  auditS6: string;
  auditUserId: string;
  auditUserName: string;
  auditAction: string;
  auditResourceType: string;
  auditResourceId: string | null;
  auditOldValues: string | null;
  auditIp: string | null;
  auditUserAgent: string | null;
  auditSessionId: string | null;
  auditFacility: string | null;
  auditFlags: string | null;
}

/**
 * auditAppendSql for a hot statement: the call's text, with a slot for every value of the row that differs between
 * requests. `newValues` is part of the text: its literal parts must be the same on every request (per-request
 * parts are SqlJson over other slots); `patientId` is an SQL integer expression (a slot, or computed).
 */
export function auditAppendSlotted(slot: Slots<AuditSlots>, newValues: StatementJson, patientId: SQL): SQL {
  return sql`nhr_audit_append_sql(${slot.auditS0}, ${slot.auditS1}, ${slot.auditS2}, ${slot.auditS3}, ${slot.auditS4}, ${slot.auditS5},
    ${slot.auditS6}, ${canonicalSql(newValues)}, (${patientId})::int, ${slot.auditUserId}, ${slot.auditUserName}, ${slot.auditAction},
    ${slot.auditResourceType}, ${slot.auditResourceId}, ${slot.auditOldValues}::jsonb, ${slot.auditIp}, ${slot.auditUserAgent},
    ${slot.auditSessionId}, ${slot.auditFacility}, ${slot.auditFlags}::jsonb)`;
}

/**
 * The row's segment plan (canonical-json segmentPlan) for its hashed fields, the holes left out: worked out once for
 * its keys, not on every request.
 */
let rowPlan: { keys: string; plan: SegmentPlan } | undefined;
function rowPlanOf(fields: Record<string, JsonValue>): SegmentPlan {
  const keys = Object.keys(fields).join();
  if (rowPlan?.keys === keys) return rowPlan.plan;
  const holes: readonly string[] = ROW_HOLES;
  const plan = segmentPlan(
    Object.keys(fields).filter((key) => !holes.includes(key)),
    ROW_HOLES,
  );
  if (plan.holes.join() !== ROW_HOLES.join()) throw new Error(`audit hash holes out of order: ${plan.holes.join()}`);
  rowPlan = { keys, plan };
  return plan;
}

/** The values of auditAppendSlotted's slots for one request's audit row (its new_values and patient are in the text). */
export function auditSlotValues(entry: Omit<AuditEntry, 'newValues' | 'patientId'>): AuditSlots {
  // new_values and the patient are the statement's (holes of the hashed text): the entry's own are not read.
  const f = auditRowFields({
    actor: entry.actor,
    meta: entry.meta,
    action: entry.action,
    resourceType: entry.resourceType,
    resourceId: entry.resourceId,
    oldValues: entry.oldValues,
    complianceFlags: entry.complianceFlags,
  });
  const fields = hashedFields(f);
  const segments = fillSegments(rowPlanOf(fields), fields);
  const [auditS0, auditS1, auditS2, auditS3, auditS4, auditS5, auditS6] = segments as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  return {
    auditS0,
    auditS1,
    auditS2,
    auditS3,
    auditS4,
    auditS5,
    auditS6,
    auditUserId: f.userId,
    auditUserName: f.userName,
    auditAction: f.action,
    auditResourceType: f.resourceType,
    auditResourceId: f.resourceId,
    auditOldValues: jsonText(f.oldValues),
    auditIp: f.ipAddress,
    auditUserAgent: f.userAgent,
    auditSessionId: f.sessionId,
    auditFacility: f.facility,
    auditFlags: jsonText(f.complianceFlags),
  };
}

/**
 * The values of a hot statement's `value_<key>` slots: the canonical JSON text of each of `keys` of an audit row's
 * new_values (the keys whose values the request gives; the statement computes the others).
 */
export function newValueSlots(newValues: Record<string, unknown>, keys: readonly string[]): Record<string, string> {
  const slots: Record<string, string> = {};
  for (const key of keys) slots[`value_${key}`] = canonicalJson(toJsonValue(newValues[key]));
  return slots;
}
