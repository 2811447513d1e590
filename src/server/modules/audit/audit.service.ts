// The audit log (SPEC §7 GET /api/audit-logs). Reading it is itself audited (readAuditLogs).
import { auditLogQuery, type AuditLogEntry, type AuditLogFilters, type AuditLogQueryInput } from '../../../contracts/audit';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import type { Db } from '../../db/client';
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

/** listAuditLogs for a person: the read is recorded as VIEW AUDIT_LOG, with the filters, in the same transaction. */
export async function readAuditLogs(
  scope: RequestScope,
  filters: AuditLogQueryInput,
  /** A time window finer than the days of dateFrom/dateTo (FHIR AuditEvent's date prefixes), within them. */
  window: { from?: Date; before?: Date } = {},
): Promise<AuditLogEntry[]> {
  const parsed = parseAuditLogFilters(filters);
  const rows = await inAuditedTransaction(scope, async (ctx) => {
    const criteria = criteriaOf(parsed);
    const latest = (a: Date | undefined, b: Date | undefined) => (a && b ? (a > b ? a : b) : (a ?? b));
    const earliest = (a: Date | undefined, b: Date | undefined) => (a && b ? (a < b ? a : b) : (a ?? b));
    const found = await selectAuditLogs(ctx.tx, {
      ...criteria,
      from: latest(criteria.from, window.from),
      before: earliest(criteria.before, window.before),
    });
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
  return rows.map(toEntry);
}
