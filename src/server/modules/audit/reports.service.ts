// Compliance reports (SPEC §7; DESIGN.md §6): computed from the audit data for a period, stored COMPLETED.
import {
  generateReportInput,
  reportListQuery,
  type AuditAction,
  type ComplianceReport,
  type ComplianceReportSummary,
  type GenerateReportInput,
  type ReportFilters,
  type ReportListQueryInput,
  type ReportType,
} from '../../../contracts/audit';
import { REPORT_DETAIL_LIMIT, type ActivitySummary, type Capped, type ReportData } from '../../../contracts/compliance-report-data';
import { auditActorOf } from '../../audit/audit-writer';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import type { Db, DbOrTx } from '../../db/client';
import { primaryReads, type ReadDb } from '../../db/read-db';
import { AppError } from '../../errors/app-error';
import { withPresentedValues } from './audit-values';
import { parseOr400 } from './parse';
import { endOfDay, startOfDay } from './period';
import * as reports from './reports.repository';
import type { ComplianceReportRow, Period } from './reports.repository';

const ACCESS_ACTIONS: readonly AuditAction[] = ['VIEW', 'SEARCH'];
const MODIFICATION_ACTIONS: readonly AuditAction[] = ['CREATE', 'UPDATE', 'DELETE'];

const capped = <T>(total: number, rows: T[], limit: number): Capped<T> => ({ total, truncated: total > limit, rows });

async function activitySummary(tx: DbOrTx, p: Period, actions: readonly AuditAction[]): Promise<ActivitySummary> {
  const summary: ActivitySummary = { total: 0, byAction: Object.fromEntries(actions.map((a) => [a, 0])), byResourceType: {} };
  for (const c of await reports.activityCounts(tx, p, actions)) {
    summary.total += c.count;
    summary.byAction[c.action as AuditAction] = (summary.byAction[c.action as AuditAction] ?? 0) + c.count;
    summary.byResourceType[c.resourceType] = (summary.byResourceType[c.resourceType] ?? 0) + c.count;
  }
  return summary;
}

// Distributes over the union, so each report type keeps its own fields.
type Body<T extends ReportData> = T extends ReportData ? Omit<T, 'period' | 'generatedAt' | 'detailLimit' | 'dataAsOf'> : never;

/**
 * How far behind the primary a standby may be for a report to be computed there (decision 058): reports count whole
 * past days for an auditor, and five minutes of the last activity is within what a report of "today" can promise
 * anyway. The report records its `dataAsOf`; a standby further behind is passed over for the primary.
 */
export const REPORT_MAX_STALENESS_MS = 5 * 60_000;

async function reportBody(tx: DbOrTx, type: ReportType, p: Period, limit: number): Promise<Body<ReportData>> {
  if (type === 'HIPAA') {
    const summary = {
      ...(await reports.hipaaSummary(tx, p)),
      ...(await reports.breakGlassReviewCounts(tx, p)),
      ...(await reports.loginFailureCounts(tx, p)),
    };
    return {
      reportType: 'HIPAA',
      summary,
      accessesByUser: capped(summary.users, await reports.accessesByUser(tx, p, limit), limit),
      accessesByPatient: capped(summary.patients, await reports.accessesByPatient(tx, p, limit), limit),
      breakGlassAccesses: capped(summary.breakGlassAccesses, await reports.breakGlassAccesses(tx, p, limit), limit),
      loginFailures: capped(summary.failedLogins + summary.lockedOutLogins, await reports.loginFailures(tx, p, limit), limit),
    };
  }
  if (type === 'ACCESS_LOG') {
    const summary = await activitySummary(tx, p, ACCESS_ACTIONS);
    const rows = await reports.activityEntries(tx, p, ACCESS_ACTIONS, limit);
    return {
      reportType: 'ACCESS_LOG',
      summary,
      entries: capped(
        summary.total,
        rows.map((row) => {
          const { oldValues: _old, eventValues: _event, ...r } = withPresentedValues(row);
          return r;
        }),
        limit,
      ),
    };
  }
  const summary = await activitySummary(tx, p, MODIFICATION_ACTIONS);
  const rows = await reports.activityEntries(tx, p, MODIFICATION_ACTIONS, limit);
  return {
    reportType: 'DATA_MODIFICATION',
    summary,
    entries: capped(
      summary.total,
      rows.map(({ complianceFlags: _flags, ...row }) => withPresentedValues(row)),
      limit,
    ),
  };
}

/**
 * The report's data for dateFrom..dateTo (inclusive UTC days), from one consistent snapshot: on the standby when
 * `source` is the app's read pool and it is recent enough (decision 058), else on the primary.
 */
export async function computeReportData(
  source: Db | ReadDb,
  type: ReportType,
  dateFrom: string,
  dateTo: string,
  detailLimit: number = REPORT_DETAIL_LIMIT,
): Promise<ReportData> {
  const period: Period = { from: startOfDay(dateFrom), before: endOfDay(dateTo) };
  const reads = 'snapshot' in source ? source : primaryReads(source);
  const { value: body, freshness } = await reads.snapshot(REPORT_MAX_STALENESS_MS, (tx) => reportBody(tx, type, period, detailLimit));
  return {
    ...body,
    period: { from: dateFrom, to: dateTo, timeZone: 'UTC' },
    generatedAt: new Date().toISOString(),
    dataAsOf: freshness,
    detailLimit,
  } as ReportData;
}

const toReport = (row: ComplianceReportRow): ComplianceReport => ({ ...row, generatedAt: row.generatedAt.toISOString() });
const toSummary = (row: reports.ComplianceReportListRow): ComplianceReportSummary => ({
  ...row,
  generatedAt: row.generatedAt.toISOString(),
});

/** Whether any detail list of the report was cut at its limit (the summary counts stay exact). */
const anyCapped = (data: ReportData): boolean =>
  Object.values(data).some((v) => typeof v === 'object' && v !== null && (v as { truncated?: unknown }).truncated === true);

export interface GenerateOptions {
  /** Cap on every list in the report (tests use a small one). */
  detailLimit?: number;
  /** Where the report's data is read (the app's read pool, decision 058); default the primary. The report and its audit row are written on the primary. */
  reads?: ReadDb;
}

/** Computes and stores a report (status COMPLETED, generatedBy the actor's name), audited as CREATE COMPLIANCE_REPORT. */
export async function generateReport(
  scope: RequestScope,
  input: GenerateReportInput,
  options: GenerateOptions = {},
): Promise<ComplianceReport> {
  const req = parseOr400(generateReportInput, input, 'Invalid report request');
  const data = await computeReportData(options.reads ?? scope.db, req.reportType, req.dateFrom, req.dateTo, options.detailLimit);
  const who = auditActorOf(scope.actor);
  const dateRange = { from: req.dateFrom, to: req.dateTo };
  const row = await inAuditedTransaction(scope, async (ctx) => {
    const report = await reports.insertReport(ctx.tx, {
      reportType: req.reportType,
      title: req.title,
      description: req.description ?? null,
      dateRange: JSON.stringify(dateRange),
      generatedBy: who.userName,
      status: 'COMPLETED',
      reportData: JSON.stringify(data),
      facility: who.facility,
      detailsCapped: anyCapped(data),
    });
    return ctx.audited(report, {
      action: 'CREATE',
      resourceType: 'COMPLIANCE_REPORT',
      resourceId: report.id,
      newValues: { reportType: report.reportType, title: report.title, dateRange },
    });
  });
  return toReport(row);
}

const criteriaOf = (f: ReportFilters): reports.ReportCriteria => ({
  reportType: f.reportType,
  status: f.status,
  from: f.dateFrom ? startOfDay(f.dateFrom) : undefined,
  before: f.dateTo ? endOfDay(f.dateTo) : undefined,
  limit: f.pageSize,
  offset: (f.page - 1) * f.pageSize,
});

/**
 * A page of reports without their data, newest first; archived ones only under status ARCHIVED; dates filter on
 * generatedAt. Not audited: for internal use.
 */
export async function listReports(db: Db, filters: ReportListQueryInput): Promise<ComplianceReportSummary[]> {
  const f = parseOr400(reportListQuery, filters, 'Invalid report filters');
  return (await reports.selectReports(db, criteriaOf(f))).map(toSummary);
}

/** A page of the list and how many reports the filters match in all (the route sends it as X-Total-Count). */
export interface ReportPage {
  reports: ComplianceReportSummary[];
  total: number;
}

/** listReports for a person, with the total, recorded as VIEW COMPLIANCE_REPORT (reports carry audit data). */
export async function readReports(scope: RequestScope, filters: ReportListQueryInput): Promise<ReportPage> {
  const f = parseOr400(reportListQuery, filters, 'Invalid report filters');
  const page = await inAuditedTransaction(scope, async (ctx) => {
    const criteria = criteriaOf(f);
    const found = await reports.selectReports(ctx.tx, criteria);
    const total = await reports.countReports(ctx.tx, criteria);
    return ctx.audited(
      { found, total },
      { action: 'VIEW', resourceType: 'COMPLIANCE_REPORT', newValues: { filters: f, returned: found.length } },
    );
  });
  return { reports: page.found.map(toSummary), total: page.total };
}

const reportNotFound = (): AppError => new AppError('NOT_FOUND', 'Report not found');

/**
 * GET /api/compliance-reports/{id}/download: the report's data as a stream of pieces (never whole in memory),
 * recorded as VIEW COMPLIANCE_REPORT before the first byte. 404 for an unknown report.
 */
export async function downloadReport(scope: RequestScope, id: number): Promise<AsyncGenerator<string>> {
  const length = await inAuditedTransaction(scope, async (ctx) => {
    const n = await reports.reportDataLength(ctx.tx, id);
    if (n === null) throw reportNotFound();
    return ctx.audited(n, { action: 'VIEW', resourceType: 'COMPLIANCE_REPORT', resourceId: id, newValues: { download: true } });
  });
  return reports.reportDataChunks(scope.db, id, length);
}

/**
 * POST /api/compliance-reports/{id}/archive (archived true: hidden from the list, kept) and .../restore (false: back
 * in the list); audited as UPDATE COMPLIANCE_REPORT. 404 when unknown or already in that state: nothing is written.
 */
export async function setReportArchived<A extends boolean>(
  scope: RequestScope,
  id: number,
  archived: A,
): Promise<{ id: number; archived: A }> {
  const who = auditActorOf(scope.actor);
  return inAuditedTransaction(scope, async (ctx) => {
    if (!(await reports.setReportArchived(ctx.tx, id, archived, who))) throw reportNotFound();
    return ctx.audited(
      { id, archived },
      {
        action: 'UPDATE',
        resourceType: 'COMPLIANCE_REPORT',
        resourceId: id,
        oldValues: { archived: !archived },
        newValues: { archived },
      },
    );
  });
}
