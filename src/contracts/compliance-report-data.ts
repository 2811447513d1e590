// The shape of a compliance report's reportData (DESIGN.md §6), computed from the audit data for a period.
// Lists are capped (`Capped`): totals are always exact, rows stop at the detail limit.
import type { AuditAction } from './audit';

/** At most this many rows in any list of a report; the totals still count everything. */
export const REPORT_DETAIL_LIMIT = 10_000;

export interface Capped<T> {
  /** How many there are in the period. */
  total: number;
  /** True when rows holds only the first `REPORT_DETAIL_LIMIT` of them. */
  truncated: boolean;
  rows: T[];
}

export type ActionCounts = Record<AuditAction, number>;

interface ReportDataBase {
  /** The period covered, inclusive, as UTC calendar days. */
  period: { from: string; to: string; timeZone: 'UTC' };
  generatedAt: string;
  /**
   * Where the data was read and how fresh it is (issue 28 item 4, decision 058): every change committed up to
   * `dataAsOf` is counted, none after it; `server` 'standby' when the report was computed on the read replica.
   * Reports stored before it have none.
   */
  dataAsOf?: { server: 'standby' | 'primary'; dataAsOf: string | null };
  detailLimit: number;
}

/** An audit row as a report lists it. */
export interface ReportAuditEvent {
  id: number;
  timestamp: string;
  userId: string;
  userName: string;
  action: string;
  resourceType: string;
  resourceId: string | null;
  patientId: number | null;
  facility: string | null;
  ipAddress: string | null;
}

export interface HipaaReportData extends ReportDataBase {
  reportType: 'HIPAA';
  summary: {
    /** Every audited event in the period (each is an access to protected data or the audit trail). */
    auditEvents: number;
    users: number;
    patients: number;
    breakGlassAccesses: number;
    /** Break-the-glass accesses of the period with a privacy-review verdict (given at any time up to the report). */
    breakGlassReviewed: number;
    breakGlassUnreviewed: number;
    consentAccesses: number;
    failedLogins: number;
    lockedOutLogins: number;
  };
  /** Busiest first. */
  accessesByUser: Capped<{ userId: string; userName: string; total: number; byAction: ActionCounts }>;
  /** Busiest first; only events about one patient. */
  accessesByPatient: Capped<{ patientId: number; total: number; users: number; byAction: ActionCounts }>;
  /**
   * Record access without the patient's consent (DESIGN.md §4), oldest first, with the latest privacy-review
   * verdict (null while unreviewed), who gave it and when, and the minutes from the access to its first verdict.
   */
  breakGlassAccesses: Capped<
    ReportAuditEvent & {
      reason: string | null;
      verdict: string | null;
      reviewedBy: string | null;
      reviewedAt: string | null;
      minutesToReview: number | null;
    }
  >;
  /** security_events LOGIN_FAILURE and LOGIN_LOCKED, oldest first. */
  loginFailures: Capped<{
    id: number;
    timestamp: string;
    eventType: string;
    userId: string | null;
    ipAddress: string | null;
    facility: string | null;
    description: string;
  }>;
}

export interface ActivitySummary {
  total: number;
  byAction: Partial<ActionCounts>;
  byResourceType: Record<string, number>;
}

/** Every VIEW and SEARCH in the period, oldest first, with what was searched for or opened (newValues). */
export interface AccessLogReportData extends ReportDataBase {
  reportType: 'ACCESS_LOG';
  summary: ActivitySummary;
  entries: Capped<ReportAuditEvent & { newValues: unknown; complianceFlags: unknown }>;
}

/**
 * Every CREATE, UPDATE and DELETE in the period, oldest first, with old and new values. For an event whose payload is
 * kept out of the hash chain (decision 042) those are its payload (`{ shredded: true }` once shredded) and eventValues
 * the small details its chained row carries.
 */
export interface DataModificationReportData extends ReportDataBase {
  reportType: 'DATA_MODIFICATION';
  summary: ActivitySummary;
  entries: Capped<ReportAuditEvent & { oldValues: unknown; newValues: unknown; eventValues?: { oldValues: unknown; newValues: unknown } }>;
}

export type ReportData = HipaaReportData | AccessLogReportData | DataModificationReportData;
