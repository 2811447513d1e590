import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { AccessLogReportData, DataModificationReportData, HipaaReportData } from '../../../contracts/compliance-report-data';
import { writeAudit, type AuditEntry } from '../../audit/audit-writer';
import type { StaffActor } from '../../context/actor';
import type { Db } from '../../db/client';
import { auditEntry, query, testMeta } from '../../test/audit-fixtures';
import type { Actor } from '../../context/actor';
import type { RequestScope } from '../../context/data-context';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { computeReportData, generateReport, listReports, readReports } from './reports.service';

let database: TestDatabase;
let db: Db;

const A = { userId: 'user-a', userName: 'Anna Amukoto', facility: 'Katutura State Hospital' };
const B = { userId: 'user-b', userName: 'Ben Shikongo' };
const P10 = { userId: 'patient:10', userName: 'Patient 10' };
const REASON_A = 'Unconscious patient, no next of kin reachable';
const REASON_B = 'Emergency triage after road accident';

// A month of known events (February 2025) and one on each side of it.
const events: [string, Partial<AuditEntry>][] = [
  [
    '2025-01-31T23:59:59.999Z',
    { actor: A, action: 'VIEW', patientId: 12, complianceFlags: { type: 'BREAK_GLASS', reason: 'Before the period' } },
  ],
  [
    '2025-02-01T00:00:00Z',
    { actor: A, action: 'SEARCH', resourceId: null, patientId: null, newValues: { method: 'name-dob', lastName: 'Shipanga' } },
  ],
  ['2025-02-02T08:00:00Z', { actor: A, action: 'SEARCH', resourceId: null, patientId: null }],
  ['2025-02-03T08:00:00Z', { actor: A, action: 'SEARCH', resourceId: null, patientId: null }],
  ['2025-02-04T08:00:00Z', { actor: A, action: 'VIEW', resourceId: 10, patientId: 10, complianceFlags: { type: 'CONSENT' } }],
  [
    '2025-02-05T08:00:00Z',
    { actor: A, action: 'VIEW', resourceId: 11, patientId: 11, complianceFlags: { type: 'BREAK_GLASS', reason: REASON_A } },
  ],
  [
    '2025-02-06T08:00:00Z',
    { actor: A, action: 'CREATE', resourceType: 'DIAGNOSIS', resourceId: 1, patientId: 10, newValues: { condition: 'Malaria' } },
  ],
  [
    '2025-02-07T08:00:00Z',
    { actor: B, action: 'VIEW', resourceId: 10, patientId: 10, complianceFlags: { type: 'BREAK_GLASS', reason: REASON_B } },
  ],
  [
    '2025-02-08T08:00:00Z',
    {
      actor: B,
      action: 'UPDATE',
      resourceType: 'MEDICATION',
      resourceId: 2,
      patientId: 10,
      oldValues: { dosage: '250mg' },
      newValues: { dosage: '500mg' },
    },
  ],
  [
    '2025-02-09T08:00:00Z',
    { actor: B, action: 'DELETE', resourceType: 'ALLERGY', resourceId: 3, patientId: 11, oldValues: { allergen: 'Penicillin' } },
  ],
  ['2025-02-28T23:59:59Z', { actor: P10, action: 'VIEW', resourceId: 10, patientId: 10 }],
  ['2025-03-01T00:00:00Z', { actor: B, action: 'CREATE', resourceType: 'VACCINE', resourceId: 4, patientId: 10 }],
];
const securityFixture: [string, string, string | null][] = [
  ['2025-01-31T12:00:00Z', 'LOGIN_FAILURE', 'user-a'],
  ['2025-02-10T07:00:00Z', 'LOGIN_FAILURE', 'user-a'],
  ['2025-02-10T07:01:00Z', 'LOGIN_FAILURE', 'user-a'],
  ['2025-02-10T07:02:00Z', 'LOGIN_LOCKED', 'user-a'],
  ['2025-02-11T07:00:00Z', 'LOGIN_FAILURE', null],
  ['2025-02-11T07:05:00Z', 'LOGIN_SUCCESS', 'user-b'],
];

const auditor: StaffActor = {
  kind: 'staff',
  userId: 'auditor-1',
  firstName: 'Audrey',
  lastName: 'Auditor',
  email: 'audrey@health.gov.na',
  roleId: 6,
  roleName: 'auditor',
  roleDisplayName: 'Auditor',
  facility: 'Windhoek Central Hospital',
  department: null,
  permissions: new Set(['reports.generate', 'reports.read']),
};
const scopeOf = (actor: Actor): RequestScope => ({ db, actor, meta: testMeta, now: new Date() });

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
  // The fixture's months are long past: their partitions of audit_logs (decision 057) are made here.
  for (const month of ['2025-01-01', '2025-02-01', '2025-03-01']) await db.execute(sql`SELECT nhr_audit_create_partition(${month}::date)`);
  for (const [timestamp, entry] of events) {
    await writeAudit(db, auditEntry({ resourceType: 'PATIENT', ...entry }));
    await db.execute(sql`UPDATE audit_logs SET "timestamp" = ${timestamp}::timestamptz WHERE id = (SELECT max(id) FROM audit_logs)`);
  }
  for (const [timestamp, eventType, userId] of securityFixture) {
    await db.execute(sql`INSERT INTO security_events (user_id, event_type, severity, description, ip_address, "timestamp")
      VALUES (${userId}, ${eventType}, 'medium', ${`${eventType} for ${userId ?? 'an unknown e-mail'}`}, '10.0.0.9', ${timestamp}::timestamptz)`);
  }
});
afterAll(async () => {
  await database?.dispose();
});

const february = ['2025-02-01', '2025-02-28'] as const;
const noActions = { CREATE: 0, UPDATE: 0, DELETE: 0, VIEW: 0, SEARCH: 0 };

describe('HIPAA report', () => {
  it('counts accesses by user and by patient, lists every break-the-glass reason and the failed logins', async () => {
    const data = (await computeReportData(db, 'HIPAA', ...february)) as HipaaReportData;
    expect(data.reportType).toBe('HIPAA');
    expect(data.period).toEqual({ from: '2025-02-01', to: '2025-02-28', timeZone: 'UTC' });
    expect(data.summary).toEqual({
      auditEvents: 10,
      users: 3,
      patients: 2,
      breakGlassAccesses: 2,
      breakGlassReviewed: 0,
      breakGlassUnreviewed: 2,
      consentAccesses: 1,
      failedLogins: 3,
      lockedOutLogins: 1,
    });
    expect(data.accessesByUser).toEqual({
      total: 3,
      truncated: false,
      rows: [
        { userId: 'user-a', userName: 'Anna Amukoto', total: 6, byAction: { ...noActions, SEARCH: 3, VIEW: 2, CREATE: 1 } },
        { userId: 'user-b', userName: 'Ben Shikongo', total: 3, byAction: { ...noActions, VIEW: 1, UPDATE: 1, DELETE: 1 } },
        { userId: 'patient:10', userName: 'Patient 10', total: 1, byAction: { ...noActions, VIEW: 1 } },
      ],
    });
    expect(data.accessesByPatient).toEqual({
      total: 2,
      truncated: false,
      rows: [
        { patientId: 10, total: 5, users: 3, byAction: { ...noActions, VIEW: 3, CREATE: 1, UPDATE: 1 } },
        { patientId: 11, total: 2, users: 2, byAction: { ...noActions, VIEW: 1, DELETE: 1 } },
      ],
    });
    expect(data.breakGlassAccesses.total).toBe(2);
    expect(data.breakGlassAccesses.rows.map((r) => [r.userName, r.patientId, r.reason, r.timestamp])).toEqual([
      ['Anna Amukoto', 11, REASON_A, '2025-02-05T08:00:00.000Z'],
      ['Ben Shikongo', 10, REASON_B, '2025-02-07T08:00:00.000Z'],
    ]);
    expect(data.loginFailures.total).toBe(4);
    expect(data.loginFailures.rows.map((r) => [r.eventType, r.userId])).toEqual([
      ['LOGIN_FAILURE', 'user-a'],
      ['LOGIN_FAILURE', 'user-a'],
      ['LOGIN_LOCKED', 'user-a'],
      ['LOGIN_FAILURE', null],
    ]);
  });

  it('is empty for a period without events', async () => {
    const data = (await computeReportData(db, 'HIPAA', '2024-06-01', '2024-06-30')) as HipaaReportData;
    expect(data.summary).toEqual({
      auditEvents: 0,
      users: 0,
      patients: 0,
      breakGlassAccesses: 0,
      breakGlassReviewed: 0,
      breakGlassUnreviewed: 0,
      consentAccesses: 0,
      failedLogins: 0,
      lockedOutLogins: 0,
    });
    expect(data.accessesByUser).toEqual({ total: 0, truncated: false, rows: [] });
    expect(data.breakGlassAccesses.rows).toEqual([]);
  });
});

describe('ACCESS_LOG report', () => {
  it('lists every VIEW and SEARCH of the period, oldest first, with what was searched for', async () => {
    const data = (await computeReportData(db, 'ACCESS_LOG', ...february)) as AccessLogReportData;
    expect(data.summary).toEqual({ total: 7, byAction: { VIEW: 4, SEARCH: 3 }, byResourceType: { PATIENT: 7 } });
    expect(data.entries.total).toBe(7);
    expect(data.entries.truncated).toBe(false);
    expect(data.entries.rows.map((r) => [r.action, r.userId, r.patientId])).toEqual([
      ['SEARCH', 'user-a', null],
      ['SEARCH', 'user-a', null],
      ['SEARCH', 'user-a', null],
      ['VIEW', 'user-a', 10],
      ['VIEW', 'user-a', 11],
      ['VIEW', 'user-b', 10],
      ['VIEW', 'patient:10', 10],
    ]);
    expect(data.entries.rows[0]!.newValues).toEqual({ method: 'name-dob', lastName: 'Shipanga' });
    expect(data.entries.rows[4]!.complianceFlags).toEqual({ type: 'BREAK_GLASS', reason: REASON_A });
  });

  it('caps the list at the detail limit, keeping the exact total, and says so', async () => {
    const data = (await computeReportData(db, 'ACCESS_LOG', ...february, 2)) as AccessLogReportData;
    expect(data.detailLimit).toBe(2);
    expect(data.entries).toMatchObject({ total: 7, truncated: true });
    expect(data.entries.rows).toHaveLength(2);
  });
});

describe('DATA_MODIFICATION report', () => {
  it('lists every CREATE, UPDATE and DELETE of the period with old and new values', async () => {
    const data = (await computeReportData(db, 'DATA_MODIFICATION', ...february)) as DataModificationReportData;
    expect(data.summary).toEqual({
      total: 3,
      byAction: { CREATE: 1, UPDATE: 1, DELETE: 1 },
      byResourceType: { DIAGNOSIS: 1, MEDICATION: 1, ALLERGY: 1 },
    });
    expect(data.entries.rows.map((r) => [r.action, r.resourceType, r.resourceId, r.oldValues, r.newValues])).toEqual([
      ['CREATE', 'DIAGNOSIS', '1', null, { condition: 'Malaria' }],
      ['UPDATE', 'MEDICATION', '2', { dosage: '250mg' }, { dosage: '500mg' }],
      ['DELETE', 'ALLERGY', '3', { allergen: 'Penicillin' }, null],
    ]);
  });
});

describe('generateReport and listReports', () => {
  it('stores the report COMPLETED, by the signed-in user (not the generatedBy sent), and audits it', async () => {
    const report = await generateReport(scopeOf(auditor), {
      title: 'February access review',
      description: 'Monthly',
      dateFrom: '2025-02-01',
      dateTo: '2025-02-28',
      generatedBy: 'Healthcare Admin',
    });
    expect(report).toMatchObject({
      reportType: 'HIPAA',
      title: 'February access review',
      description: 'Monthly',
      status: 'COMPLETED',
      generatedBy: 'Audrey Auditor',
      facility: 'Windhoek Central Hospital',
    });
    expect(JSON.parse(report.dateRange)).toEqual({ from: '2025-02-01', to: '2025-02-28' });
    const data = JSON.parse(report.reportData) as HipaaReportData;
    expect(data.summary.breakGlassAccesses).toBe(2);
    expect(data.breakGlassAccesses.rows.map((r) => r.reason)).toEqual([REASON_A, REASON_B]);

    const [stored] = await query(db, sql`SELECT report_data, status FROM compliance_reports WHERE id = ${report.id}`);
    expect(stored).toEqual({ report_data: report.reportData, status: 'COMPLETED' });
    const [audit] = await query(db, sql`SELECT * FROM audit_logs ORDER BY id DESC LIMIT 1`);
    expect(audit).toMatchObject({
      user_id: 'auditor-1',
      action: 'CREATE',
      resource_type: 'COMPLIANCE_REPORT',
      resource_id: String(report.id),
      new_values: { reportType: 'HIPAA', title: 'February access review', dateRange: { from: '2025-02-01', to: '2025-02-28' } },
    });
  });

  it('refuses an invalid request with a 400 and stores nothing', async () => {
    const before = (await listReports(db, {})).length;
    for (const input of [
      { title: '  ', dateFrom: '2025-02-01', dateTo: '2025-02-28' },
      { title: 'x', dateFrom: '2025-02-28', dateTo: '2025-02-01' },
      { title: 'x', reportType: 'GDPR', dateFrom: '2025-02-01', dateTo: '2025-02-28' },
    ]) {
      await expect(generateReport(scopeOf(auditor), input as never)).rejects.toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    }
    expect(await listReports(db, {})).toHaveLength(before);
  });

  it('lists reports newest first, filtered by type, status and the day they were generated', async () => {
    await generateReport(scopeOf(auditor), { reportType: 'ACCESS_LOG', title: 'Access', dateFrom: '2025-02-01', dateTo: '2025-02-28' });
    await generateReport(scopeOf(auditor), {
      reportType: 'DATA_MODIFICATION',
      title: 'Changes',
      dateFrom: '2025-02-01',
      dateTo: '2025-02-28',
    });
    const today = new Date().toISOString().slice(0, 10);
    expect((await listReports(db, {})).map((r) => r.title)).toEqual(['Changes', 'Access', 'February access review']);
    expect((await listReports(db, { reportType: 'ACCESS_LOG', status: 'all' })).map((r) => r.title)).toEqual(['Access']);
    expect(await listReports(db, { status: 'ARCHIVED' })).toEqual([]);
    expect(await listReports(db, { dateFrom: today, dateTo: today })).toHaveLength(3);
    expect(await listReports(db, { dateTo: '2025-01-01' })).toEqual([]);
    await expect(listReports(db, { status: 'PENDING' } as never)).rejects.toMatchObject({ status: 400 });
  });

  it('records a person reading the list as VIEW COMPLIANCE_REPORT', async () => {
    const reportsRead = await readReports(scopeOf(auditor), { reportType: 'HIPAA' });
    expect(reportsRead.reports).toHaveLength(1);
    expect(reportsRead.total).toBe(1);
    const [audit] = await query(db, sql`SELECT * FROM audit_logs ORDER BY id DESC LIMIT 1`);
    expect(audit).toMatchObject({
      action: 'VIEW',
      resource_type: 'COMPLIANCE_REPORT',
      new_values: { filters: { reportType: 'HIPAA' }, returned: 1 },
    });
  });
});
