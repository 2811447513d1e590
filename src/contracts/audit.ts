// Audit vocabulary (SPEC §3, §4, §9; DESIGN.md §6) and the audit API's schemas (SPEC §7).
import { z } from 'zod';
import { safeString, text } from './fields';
import { DATE_OUT_OF_RANGE, isYearInRange } from './safe-text';
import { RECORD_RESOURCE_TYPES } from './kinds';

export const AUDIT_ACTIONS = ['CREATE', 'UPDATE', 'DELETE', 'VIEW', 'SEARCH'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** SPEC §9 resource types, plus the ones DESIGN.md adds: each record kind's (contracts/kinds), the audit log, its payloads and reports themselves, users. */
export const AUDIT_RESOURCE_TYPES = [
  'PATIENT',
  ...RECORD_RESOURCE_TYPES,
  'AUDIT_LOG',
  'COMPLIANCE_REPORT',
  'USER',
  'ACCESS_REVIEW',
  // The shredding of an audit row's payload (decision 042).
  'AUDIT_PAYLOAD',
  // A version of the immunization schedule an administrator loaded (decision 044).
  'IMMUNIZATION_SCHEDULE',
  // A possible duplicate pair: the review queue read, a decision, the registry-wide run started (decision 046).
  'DUPLICATE_PAIR',
  // A join of two records of one person, read (decision 048; the join and its undo are audited on each patient).
  'PATIENT_JOIN',
  // A device offline mode is switched on for: switched on, revoked, its offline set read, a queued write discarded (decision 061).
  'DEVICE',
  // A review task offline sync opened, closed (decision 061).
  'OFFLINE_REVIEW',
] as const;
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

export const REPORT_TYPES = ['HIPAA', 'ACCESS_LOG', 'DATA_MODIFICATION'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** Compliance report statuses (SPEC §4 badge colours); generated reports are COMPLETED. */
export const REPORT_STATUSES = ['COMPLETED', 'DRAFT', 'ARCHIVED'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

// ---- Query and body schemas (SPEC §7 Audit and compliance). Messages are i18n keys. ----

export const AUDIT_LOG_LIMIT_DEFAULT = 100;
/** A larger limit is not an error: it is capped to this (the client may ask for "everything"). */
export const AUDIT_LOG_LIMIT_MAX = 1000;

/** An optional filter where 'all' and '' (SPEC §7: the client sends 'all' as chosen) mean "no filter". */
function filter<T extends z.ZodType>(schema: T) {
  return z
    .union([z.literal(['all', '']), schema], { error: 'validation:invalidChoice' })
    .optional()
    .transform((v) => (v === undefined || v === 'all' || v === '' ? undefined : (v as z.output<T>)));
}

/** A calendar date, YYYY-MM-DD (dates are UTC days on the server). */
export const isoDate = z.iso.date({ error: 'validation:dateInvalid' }).refine(isYearInRange, { error: DATE_OUT_OF_RANGE });

const dateOrder = {
  error: 'validation:dateRangeOrder',
  path: ['dateTo'],
};
const datesInOrder = (v: { dateFrom?: string | undefined; dateTo?: string | undefined }): boolean =>
  !v.dateFrom || !v.dateTo || v.dateFrom <= v.dateTo;

/** GET /api/audit-logs. Unknown action or resource type: 400. limit: 1 or more, default 100, capped at 1,000. */
export const auditLogQuery = z
  .object({
    userId: filter(safeString().trim().max(256, { error: 'validation:tooLong' })),
    patientId: filter(z.coerce.number({ error: 'validation:invalidNumber' }).int().min(1).max(2_147_483_647)),
    resourceType: filter(z.enum(AUDIT_RESOURCE_TYPES)),
    action: filter(z.enum(AUDIT_ACTIONS)),
    dateFrom: filter(isoDate),
    dateTo: filter(isoDate),
    limit: z.coerce
      .number({ error: 'validation:invalidNumber' })
      .int({ error: 'validation:invalidNumber' })
      .min(1, { error: 'validation:invalidNumber' })
      .optional()
      .transform((n) => Math.min(n ?? AUDIT_LOG_LIMIT_DEFAULT, AUDIT_LOG_LIMIT_MAX)),
    /**
     * Paging (issue 21 item 15): only rows older than this row (by time, then id). A cursor, not an offset, so the
     * reads audited meanwhile do not shift the pages.
     */
    beforeId: filter(z.coerce.number({ error: 'validation:invalidNumber' }).int().min(1).max(Number.MAX_SAFE_INTEGER)),
  })
  .refine(datesInOrder, dateOrder);
export type AuditLogQueryInput = z.input<typeof auditLogQuery>;
export type AuditLogFilters = z.output<typeof auditLogQuery>;

/** One audit row as the API returns it; missing values are null (the screen shows a dash). */
export const auditLogEntry = z.object({
  id: z.number().int(),
  userId: z.string(),
  userName: z.string(),
  action: z.string(),
  resourceType: z.string(),
  resourceId: z.string().nullable(),
  patientId: z.number().int().nullable(),
  oldValues: z.unknown(),
  newValues: z.unknown(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** ISO 8601 UTC. */
  timestamp: z.string(),
  /** SHA-256 of the session token, never the token. */
  sessionId: z.string().nullable(),
  facility: z.string().nullable(),
  complianceFlags: z.unknown(),
  /**
   * Only for a row whose payload is kept out of the hash chain (decision 042): oldValues and newValues above are that
   * payload (or `{ shredded: true }`), and these are the small event details the chained row itself carries.
   */
  eventValues: z.object({ oldValues: z.unknown(), newValues: z.unknown() }).optional(),
});
export type AuditLogEntry = z.infer<typeof auditLogEntry>;
export const auditLogList = z.array(auditLogEntry);

/** POST /api/compliance-reports/generate. generatedBy is accepted (SPEC §7) but ignored: the server names the signed-in user. */
export const generateReportInput = z
  .strictObject({
    reportType: z.enum(REPORT_TYPES, { error: 'validation:invalidChoice' }).default('HIPAA'),
    title: text(200),
    description: safeString().trim().max(2000, { error: 'validation:tooLong' }).nullish(),
    dateFrom: isoDate,
    dateTo: isoDate,
    generatedBy: safeString().max(256, { error: 'validation:tooLong' }).nullish(),
  })
  .refine(datesInOrder, dateOrder);
export type GenerateReportInput = z.input<typeof generateReportInput>;
export type GenerateReportRequest = z.output<typeof generateReportInput>;

export const REPORT_PAGE_SIZE_MAX = 100;
const reportPage = (max: number) =>
  z.coerce
    .number({ error: 'validation:invalidNumber' })
    .int({ error: 'validation:invalidNumber' })
    .min(1, { error: 'validation:invalidNumber' })
    .max(max, { error: 'validation:invalidNumber' });

/** GET /api/compliance-reports. Dates filter on when the report was generated (UTC days). */
export const reportListQuery = z
  .object({
    reportType: filter(z.enum(REPORT_TYPES)),
    status: filter(z.enum(REPORT_STATUSES)),
    dateFrom: filter(isoDate),
    dateTo: filter(isoDate),
    /** Pages of the list (issue 10 item 2): the list never carries reportData, so a page is small. */
    page: reportPage(100_000).default(1),
    pageSize: reportPage(REPORT_PAGE_SIZE_MAX).default(50),
  })
  .refine(datesInOrder, dateOrder);
export type ReportListQueryInput = z.input<typeof reportListQuery>;
export type ReportFilters = z.output<typeof reportListQuery>;

/** A stored report. dateRange and reportData are JSON text (SPEC §3): {from,to} and the report's data. */
export const complianceReport = z.object({
  id: z.number().int(),
  reportType: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  dateRange: z.string(),
  generatedBy: z.string(),
  generatedAt: z.string(),
  status: z.string(),
  reportData: z.string(),
  facility: z.string().nullable(),
  /** True when a detail list holds only its first REPORT_DETAIL_LIMIT rows; the summary is always exact. */
  detailsCapped: z.boolean(),
});
export type ComplianceReport = z.infer<typeof complianceReport>;
/** A report in the list: everything but its data (GET /api/compliance-reports/{id}/download streams that). */
export const complianceReportSummary = complianceReport.omit({ reportData: true });
export type ComplianceReportSummary = z.infer<typeof complianceReportSummary>;
export const reportArchived = z.object({ id: z.number().int(), archived: z.literal(true) });
export const reportRestored = z.object({ id: z.number().int(), archived: z.literal(false) });
/** The list's response header carrying how many reports the filters match over all pages. */
export const REPORT_TOTAL_HEADER = 'x-total-count';
/**
 * GET /api/audit-logs (decision 058): every change committed up to this time (ISO) is in the answer, none after it;
 * and the kind of server that answered, `standby` or `primary` (a standby's data may trail the primary's).
 */
export const DATA_AS_OF_HEADER = 'x-data-as-of';
export const DATA_SERVER_HEADER = 'x-data-server';
export const complianceReportList = z.array(complianceReport);
