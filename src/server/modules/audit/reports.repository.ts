// Compliance report data, aggregated in SQL: totals over any number of audit rows, and lists cut at a
// limit, so a report over millions of rows never loads them all (DESIGN.md §6).
import { and, asc, desc, eq, getTableColumns, gte, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import { AUDIT_ACTIONS, type AuditAction } from '../../../contracts/audit';
import type { ActionCounts, HipaaReportData, ReportAuditEvent } from '../../../contracts/compliance-report-data';
import type { DbOrTx } from '../../db/client';
import { auditLogs, auditPayloads, complianceReportArchives, complianceReports, securityEvents } from '../../db/schema';
import type { StoredAuditValues } from './audit-values';
import { auditPayloadJoin, auditValueColumns } from './audit-values.repository';

/** [from, before) as instants. */
export interface Period {
  from: Date;
  before: Date;
}

const inPeriod = (p: Period): SQL => and(gte(auditLogs.timestamp, p.from), lt(auditLogs.timestamp, p.before))!;
const n = (condition?: SQL): SQL<number> =>
  condition ? sql<number>`(count(*) filter (where ${condition}))::int` : sql<number>`count(*)::int`;
// Literal (not a parameter) so the planner can match the partial index audit_logs_break_glass_idx.
const flagType = (type: 'BREAK_GLASS' | 'CONSENT'): SQL => sql`${auditLogs.complianceFlags} ->> 'type' = ${sql.raw(`'${type}'`)}`;
const actionColumns = (): Record<AuditAction, SQL<number>> =>
  Object.fromEntries(AUDIT_ACTIONS.map((a) => [a, n(eq(auditLogs.action, a))])) as Record<AuditAction, SQL<number>>;
const actionCounts = (row: Record<AuditAction, number>): ActionCounts =>
  Object.fromEntries(AUDIT_ACTIONS.map((a) => [a, row[a]])) as ActionCounts;

export async function hipaaSummary(
  db: DbOrTx,
  p: Period,
): Promise<Omit<HipaaReportData['summary'], 'failedLogins' | 'lockedOutLogins' | 'breakGlassReviewed' | 'breakGlassUnreviewed'>> {
  const [row] = await db
    .select({
      auditEvents: n(),
      users: sql<number>`count(distinct ${auditLogs.userId})::int`,
      patients: sql<number>`count(distinct ${auditLogs.patientId})::int`,
      breakGlassAccesses: n(flagType('BREAK_GLASS')),
      consentAccesses: n(flagType('CONSENT')),
    })
    .from(auditLogs)
    .where(inPeriod(p));
  return row!;
}

export async function accessesByUser(db: DbOrTx, p: Period, limit: number): Promise<HipaaReportData['accessesByUser']['rows']> {
  const rows = await db
    .select({ userId: auditLogs.userId, userName: sql<string>`max(${auditLogs.userName})`, total: n(), ...actionColumns() })
    .from(auditLogs)
    .where(inPeriod(p))
    .groupBy(auditLogs.userId)
    .orderBy(desc(sql`count(*)`), asc(auditLogs.userId))
    .limit(limit);
  return rows.map((r) => ({ userId: r.userId, userName: r.userName, total: r.total, byAction: actionCounts(r) }));
}

export async function accessesByPatient(db: DbOrTx, p: Period, limit: number): Promise<HipaaReportData['accessesByPatient']['rows']> {
  const rows = await db
    .select({
      patientId: sql<number>`${auditLogs.patientId}`,
      total: n(),
      users: sql<number>`count(distinct ${auditLogs.userId})::int`,
      ...actionColumns(),
    })
    .from(auditLogs)
    .where(and(inPeriod(p), isNotNull(auditLogs.patientId)))
    .groupBy(auditLogs.patientId)
    .orderBy(desc(sql`count(*)`), asc(auditLogs.patientId))
    .limit(limit);
  return rows.map((r) => ({ patientId: r.patientId, total: r.total, users: r.users, byAction: actionCounts(r) }));
}

const eventColumns = {
  id: auditLogs.id,
  timestamp: auditLogs.timestamp,
  userId: auditLogs.userId,
  userName: auditLogs.userName,
  action: auditLogs.action,
  resourceType: auditLogs.resourceType,
  resourceId: auditLogs.resourceId,
  patientId: auditLogs.patientId,
  facility: auditLogs.facility,
  ipAddress: auditLogs.ipAddress,
};
const withIsoTime = <T extends { timestamp: Date }>(r: T): Omit<T, 'timestamp'> & { timestamp: string } => ({
  ...r,
  timestamp: r.timestamp.toISOString(),
});

// The latest privacy-review verdict of a break-the-glass row (docs/decisions/018-privacy-review.md): verdicts are
// ACCESS_REVIEW audit rows whose resource_id is the reviewed row's id.
// The outer row's columns are written out qualified: inside the subquery a bare "id" would be the review's.
const outerId = sql.raw('"audit_logs"."id"');
const latestReview = (expression: string): SQL =>
  sql`(SELECT ${sql.raw(expression)} FROM audit_logs r WHERE r.resource_type = 'ACCESS_REVIEW' AND r.resource_id = ${outerId}::text
    ORDER BY r.timestamp DESC, r.id DESC LIMIT 1)`;

/** Break-the-glass accesses in the period with a verdict (reviewed at any time up to now) and without. */
export async function breakGlassReviewCounts(db: DbOrTx, p: Period): Promise<{ breakGlassReviewed: number; breakGlassUnreviewed: number }> {
  const reviewed = sql`EXISTS (SELECT 1 FROM audit_logs r WHERE r.resource_type = 'ACCESS_REVIEW' AND r.resource_id = ${outerId}::text)`;
  const [row] = await db
    .select({ breakGlassReviewed: n(reviewed), breakGlassUnreviewed: n(sql`NOT ${reviewed}`) })
    .from(auditLogs)
    .where(and(inPeriod(p), flagType('BREAK_GLASS')));
  return row!;
}

export async function breakGlassAccesses(db: DbOrTx, p: Period, limit: number): Promise<HipaaReportData['breakGlassAccesses']['rows']> {
  const rows = await db
    .select({
      ...eventColumns,
      reason: sql<string | null>`${auditLogs.complianceFlags} ->> 'reason'`,
      verdict: sql<string | null>`${latestReview("r.new_values ->> 'verdict'")}`,
      reviewedBy: sql<string | null>`${latestReview('r.user_name')}`,
      reviewedAt: sql<string | null>`${latestReview(`to_char(r.timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)}`,
      // The first verdict's delay: how long the access waited for a reviewer.
      minutesToReview: sql<
        number | null
      >`(SELECT floor(extract(epoch FROM min(r.timestamp) - ${sql.raw('"audit_logs"."timestamp"')}) / 60)::int
        FROM audit_logs r WHERE r.resource_type = 'ACCESS_REVIEW' AND r.resource_id = ${outerId}::text)`,
    })
    .from(auditLogs)
    .where(and(inPeriod(p), flagType('BREAK_GLASS')))
    .orderBy(asc(auditLogs.timestamp), asc(auditLogs.id))
    .limit(limit);
  return rows.map(withIsoTime);
}

export const LOGIN_FAILURE_EVENTS = ['LOGIN_FAILURE', 'LOGIN_LOCKED'] as const;
const loginFailureInPeriod = (p: Period): SQL =>
  and(
    inArray(securityEvents.eventType, [...LOGIN_FAILURE_EVENTS]),
    gte(securityEvents.timestamp, p.from),
    lt(securityEvents.timestamp, p.before),
  )!;

export async function loginFailureCounts(db: DbOrTx, p: Period): Promise<{ failedLogins: number; lockedOutLogins: number }> {
  const [row] = await db
    .select({
      failedLogins: sql<number>`(count(*) filter (where ${securityEvents.eventType} = 'LOGIN_FAILURE'))::int`,
      lockedOutLogins: sql<number>`(count(*) filter (where ${securityEvents.eventType} = 'LOGIN_LOCKED'))::int`,
    })
    .from(securityEvents)
    .where(loginFailureInPeriod(p));
  return row!;
}

export async function loginFailures(db: DbOrTx, p: Period, limit: number): Promise<HipaaReportData['loginFailures']['rows']> {
  const rows = await db
    .select({
      id: securityEvents.id,
      timestamp: securityEvents.timestamp,
      eventType: securityEvents.eventType,
      userId: securityEvents.userId,
      ipAddress: securityEvents.ipAddress,
      facility: securityEvents.facility,
      description: securityEvents.description,
    })
    .from(securityEvents)
    .where(loginFailureInPeriod(p))
    .orderBy(asc(securityEvents.timestamp), asc(securityEvents.id))
    .limit(limit);
  return rows.map(withIsoTime);
}

/** Counts per action and resource type of the given actions in the period (a handful of rows). */
export async function activityCounts(
  db: DbOrTx,
  p: Period,
  actions: readonly AuditAction[],
): Promise<{ action: string; resourceType: string; count: number }[]> {
  return db
    .select({ action: auditLogs.action, resourceType: auditLogs.resourceType, count: n() })
    .from(auditLogs)
    .where(and(inPeriod(p), inArray(auditLogs.action, [...actions])))
    .groupBy(auditLogs.action, auditLogs.resourceType);
}

/** An event with its values as stored (the service presents them, audit-values.ts). */
export type ActivityEntry = ReportAuditEvent & StoredAuditValues & { complianceFlags: unknown };

/** The events themselves, oldest first, at most `limit`, with their payloads read in the same query. */
export async function activityEntries(db: DbOrTx, p: Period, actions: readonly AuditAction[], limit: number): Promise<ActivityEntry[]> {
  const rows = await db
    .select({
      ...eventColumns,
      ...auditValueColumns(),
      complianceFlags: auditLogs.complianceFlags,
    })
    .from(auditLogs)
    .leftJoin(auditPayloads, auditPayloadJoin())
    .where(and(inPeriod(p), inArray(auditLogs.action, [...actions])))
    .orderBy(asc(auditLogs.timestamp), asc(auditLogs.id))
    .limit(limit);
  return rows.map(withIsoTime);
}

export type ComplianceReportRow = typeof complianceReports.$inferSelect;
export type NewComplianceReport = typeof complianceReports.$inferInsert;

/** Stores the report (the caller's data context writes its audit row). */
export async function insertReport(tx: DbOrTx, report: NewComplianceReport): Promise<ComplianceReportRow> {
  const [row] = await tx.insert(complianceReports).values(report).returning();
  return row!;
}

export interface ReportCriteria {
  reportType?: string | undefined;
  status?: string | undefined;
  from?: Date | undefined;
  before?: Date | undefined;
  limit: number;
  offset: number;
}

export type ComplianceReportListRow = Omit<ComplianceReportRow, 'reportData'>;

/** Whether the report's latest archive event archived it (false when it has none). */
const isArchived = (): SQL<boolean> =>
  // Qualified by hand: drizzle may write the outer column unqualified, which inside the subquery would mean a.id.
  sql<boolean>`coalesce((SELECT a.archived FROM compliance_report_archives a WHERE a.report_id = compliance_reports.id
    ORDER BY a.id DESC LIMIT 1), false)`;

function reportConditions(c: Omit<ReportCriteria, 'limit' | 'offset'>): SQL | undefined {
  // ARCHIVED is not a stored status: it is the archive state, and the other filters leave archived reports out.
  const conditions: SQL[] = [c.status === 'ARCHIVED' ? isArchived() : sql`NOT ${isArchived()}`];
  if (c.reportType !== undefined) conditions.push(eq(complianceReports.reportType, c.reportType));
  if (c.status !== undefined && c.status !== 'ARCHIVED') conditions.push(eq(complianceReports.status, c.status));
  if (c.from) conditions.push(gte(complianceReports.generatedAt, c.from));
  if (c.before) conditions.push(lt(complianceReports.generatedAt, c.before));
  return and(...conditions);
}

/**
 * Newest first, without report_data (a page stays small whatever the reports hold). Archived reports only under
 * status ARCHIVED (shown with that status), left out otherwise.
 */
export async function selectReports(db: DbOrTx, c: ReportCriteria): Promise<ComplianceReportListRow[]> {
  const { reportData: _data, status, ...columns } = getTableColumns(complianceReports);
  const rows = await db
    .select({ ...columns, status })
    .from(complianceReports)
    .where(reportConditions(c))
    .orderBy(desc(complianceReports.generatedAt), desc(complianceReports.id))
    .limit(c.limit)
    .offset(c.offset);
  return c.status === 'ARCHIVED' ? rows.map((r) => ({ ...r, status: 'ARCHIVED' })) : rows;
}

/** How many reports the filters match (all pages). */
export async function countReports(db: DbOrTx, c: Omit<ReportCriteria, 'limit' | 'offset'>): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(complianceReports)
    .where(reportConditions(c));
  return row?.n ?? 0;
}

const DOWNLOAD_CHUNK = 256 * 1024;

/** The length of a report's data in characters, or null when there is no such report (archived ones included). */
export async function reportDataLength(db: DbOrTx, id: number): Promise<number | null> {
  const [row] = await db
    .select({ n: sql<number>`length(${complianceReports.reportData})::int` })
    .from(complianceReports)
    .where(eq(complianceReports.id, id));
  return row ? row.n : null;
}

/** The report's data in pieces of 256 K characters, one query each, so the download never holds it whole. */
export async function* reportDataChunks(db: DbOrTx, id: number, length: number): AsyncGenerator<string> {
  for (let start = 1; start <= length; start += DOWNLOAD_CHUNK) {
    const [row] = await db
      .select({ part: sql<string>`substr(${complianceReports.reportData}, ${start}::int, ${DOWNLOAD_CHUNK}::int)` })
      .from(complianceReports)
      .where(eq(complianceReports.id, id));
    if (!row) return;
    yield row.part;
  }
}

/**
 * Archives (archived true) or restores (false) a report by appending an archive event, under a lock on the report:
 * true when its state changed now, false when it is unknown or already in that state.
 */
export async function setReportArchived(
  tx: DbOrTx,
  id: number,
  archived: boolean,
  by: { userId: string; userName: string },
): Promise<boolean> {
  const [report] = await tx
    .select({ id: complianceReports.id, archived: isArchived() })
    .from(complianceReports)
    .where(eq(complianceReports.id, id))
    .for('update');
  if (!report || report.archived === archived) return false;
  await tx.insert(complianceReportArchives).values({ reportId: id, archived, archivedBy: by.userName, archivedByUserId: by.userId });
  return true;
}
