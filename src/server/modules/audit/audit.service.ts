// The audit log (SPEC §7 GET /api/audit-logs). Reading it is itself audited (readAuditLogs).
import { auditLogQuery, type AuditLogEntry, type AuditLogFilters, type AuditLogQueryInput } from '../../../contracts/audit';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import type { Db } from '../../db/client';
import { primaryReads, type Freshness, type ReadDb } from '../../db/read-db';
import { selectAuditLogs, type AuditLogCriteria, type AuditLogRow } from './audit.repository';
import { withPresentedValues } from './audit-values';
import { parseOr400 } from './parse';
import { endOfDay, startOfDay } from './period';

/** Parses raw filters (or passes parsed ones through): 'all' and '' mean no filter; bad values are a 400. */
export const parseAuditLogFilters = (input: AuditLogQueryInput): AuditLogFilters =>
  parseOr400(auditLogQuery, input, 'Invalid audit log filters');

function criteriaOf(f: AuditLogFilters): AuditLogCriteria {
  return {
    userId: f.userId,
    patientId: f.patientId,
    resourceType: f.resourceType,
    action: f.action,
    from: f.dateFrom ? startOfDay(f.dateFrom) : undefined,
    before: f.dateTo ? endOfDay(f.dateTo) : undefined,
    beforeId: f.beforeId,
    limit: f.limit,
  };
}

/** The row as the API shows it: old and new values through the presenter (audit-values.ts). */
const toEntry = (row: AuditLogRow): AuditLogEntry => {
  const { timestamp, ...rest } = withPresentedValues(row);
  return { ...rest, timestamp: timestamp.toISOString() };
};

/** Newest first, at most `limit` (default 100, capped at 1,000). Not audited: for internal use. */
export async function listAuditLogs(db: Db, filters: AuditLogQueryInput): Promise<AuditLogEntry[]> {
  const rows = await selectAuditLogs(db, criteriaOf(parseAuditLogFilters(filters)));
  return rows.map(toEntry);
}

/**
 * How far behind the primary a standby may be for the audit screen's searches (decision 058): a minute. An auditor
 * looks into what happened, rarely into the last seconds; the answer says how fresh it is (X-Data-As-Of), and a
 * standby further behind is passed over for the primary.
 */
export const AUDIT_SEARCH_MAX_STALENESS_MS = 60_000;

export interface AuditLogPage {
  entries: AuditLogEntry[];
  freshness: Freshness;
}

/**
 * listAuditLogs for a person: read on `reads` (the standby for the audit screen, decision 058; the primary by
 * default), then recorded as VIEW AUDIT_LOG, with the filters, on the primary; nothing is answered unless that
 * audit row committed.
 */
export async function readAuditLogs(
  scope: RequestScope,
  filters: AuditLogQueryInput,
  /** A time window finer than the days of dateFrom/dateTo (FHIR AuditEvent's date prefixes), within them. */
  window: { from?: Date; before?: Date } = {},
  reads: ReadDb = primaryReads(scope.db),
): Promise<AuditLogPage> {
  const parsed = parseAuditLogFilters(filters);
  const criteria = criteriaOf(parsed);
  const latest = (a: Date | undefined, b: Date | undefined) => (a && b ? (a > b ? a : b) : (a ?? b));
  const earliest = (a: Date | undefined, b: Date | undefined) => (a && b ? (a < b ? a : b) : (a ?? b));
  const { value: found, freshness } = await reads.snapshot(AUDIT_SEARCH_MAX_STALENESS_MS, (tx) =>
    selectAuditLogs(tx, { ...criteria, from: latest(criteria.from, window.from), before: earliest(criteria.before, window.before) }),
  );
  const rows = await inAuditedTransaction(scope, async (ctx) => {
    return ctx.audited(found, {
      action: 'VIEW',
      resourceType: 'AUDIT_LOG',
      patientId: parsed.patientId ?? null,
      newValues: {
        filters: parsed,
        ...(window.from || window.before
          ? { window: { from: window.from?.toISOString() ?? null, before: window.before?.toISOString() ?? null } }
          : {}),
        returned: found.length,
      },
    });
  });
  return { entries: rows.map(toEntry), freshness };
}
