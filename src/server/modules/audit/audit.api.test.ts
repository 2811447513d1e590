// The audit API end to end: permissions by role, filter validation, the limit cap, and the audit-of-audit row in a
// valid chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../contracts/constants';
import { verifyAuditChain } from '../../audit/audit-verify';
import { writeAudit } from '../../audit/audit-writer';
import { auditEntry, query } from '../../test/audit-fixtures';
import { ALL_ROLE_IDS, allows } from '../../test/permission-matrix';
import { auditAppendSql } from '../../audit/audit-in-statement';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let auditor: { cookie: string; user: { id: string } };
let admin: { cookie: string; user: { id: string } };
let doctor: { cookie: string; user: { id: string } };
const cookies = new Map<number, string>();

beforeAll(async () => {
  t = await createTestApp();
  auditor = await signInAs(t, ROLE_IDS.auditor);
  admin = await signInAs(t, ROLE_IDS.admin);
  doctor = await signInAs(t, ROLE_IDS.doctor);
  for (const roleId of ALL_ROLE_IDS) cookies.set(roleId, (await signInAs(t, roleId)).cookie);
  for (let i = 0; i < 3; i++) {
    await writeAudit(
      t.db,
      auditEntry({ actor: { userId: 'searcher', userName: 'Sam Searcher' }, action: 'SEARCH', resourceId: null, patientId: null }),
    );
  }
  await writeAudit(t.db, auditEntry({ action: 'VIEW', patientId: 7 }));
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const generate = (payload: object, cookie?: string) =>
  t.app.inject({ method: 'POST', url: '/api/compliance-reports/generate', payload, headers: cookie ? { cookie } : {} });
const validReport = {
  reportType: 'HIPAA',
  title: 'Quarterly review',
  description: '',
  dateFrom: '2020-01-01',
  dateTo: '2099-12-31',
  generatedBy: 'Healthcare Admin',
};
const newestAudit = async (): Promise<Record<string, unknown>> =>
  (await query(t.db, sql`SELECT * FROM audit_logs ORDER BY id DESC LIMIT 1`))[0]!;

const count = async (table: string): Promise<number> =>
  (await query<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))[0]!.n as number;

describe('permissions', () => {
  it.each(ALL_ROLE_IDS)('role %i gets the audit log only with audit.read', async (roleId) => {
    expect((await get('/api/audit-logs', cookies.get(roleId))).statusCode).toBe(allows(roleId, 'audit.read') ? 200 : 403);
  });

  it.each(ALL_ROLE_IDS)('role %i lists and generates reports only with reports.read / reports.generate', async (roleId) => {
    expect((await get('/api/compliance-reports', cookies.get(roleId))).statusCode).toBe(allows(roleId, 'reports.read') ? 200 : 403);
    expect((await generate(validReport, cookies.get(roleId))).statusCode).toBe(allows(roleId, 'reports.generate') ? 201 : 403);
  });

  it.each([
    ['GET /api/audit-logs', () => get('/api/audit-logs')],
    ['GET /api/compliance-reports', () => get('/api/compliance-reports')],
    ['POST /api/compliance-reports/generate', () => generate(validReport)],
  ])('%s answers 401 when signed out', async (_name, call) => {
    expect((await call()).statusCode).toBe(401);
  });

  it.each([
    ['GET /api/audit-logs', () => get('/api/audit-logs', doctor.cookie)],
    ['GET /api/compliance-reports', () => get('/api/compliance-reports', doctor.cookie)],
    ['POST /api/compliance-reports/generate', () => generate(validReport, doctor.cookie)],
  ])('%s answers 403 to a doctor, and records nothing', async (_name, call) => {
    const before = await newestAudit();
    const res = await call();
    expect(res.statusCode).toBe(403);
    expect(await newestAudit()).toEqual(before);
  });

  it.each([
    ['an auditor', () => auditor],
    ['an administrator', () => admin],
  ])('lets %s read the log, list and generate reports', async (_name, who) => {
    const { cookie } = who();
    expect((await get('/api/audit-logs', cookie)).statusCode).toBe(200);
    expect((await get('/api/compliance-reports', cookie)).statusCode).toBe(200);
    expect((await generate(validReport, cookie)).statusCode).toBe(201);
  });
});

describe('GET /api/audit-logs', () => {
  it("filters by action ('all' elsewhere meaning no filter), newest first", async () => {
    const res = await get('/api/audit-logs?action=SEARCH&resourceType=all&userId=all', auditor.cookie);
    expect(res.statusCode).toBe(200);
    const rows = res.json() as { id: number; action: string; userName: string; timestamp: string }[];
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.action === 'SEARCH' && r.userName === 'Sam Searcher')).toBe(true);
    expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((a, b) => b - a));
    expect(rows[0]!.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('is itself audited: VIEW AUDIT_LOG by the reader, with the filters', async () => {
    await get('/api/audit-logs?patientId=7&limit=10', auditor.cookie);
    expect(await newestAudit()).toMatchObject({
      user_id: auditor.user.id,
      action: 'VIEW',
      resource_type: 'AUDIT_LOG',
      patient_id: 7,
      new_values: { filters: { patientId: 7, limit: 10 }, returned: 1 },
    });
    const res = await get('/api/audit-logs?resourceType=AUDIT_LOG&limit=1', auditor.cookie);
    expect(res.json()[0]).toMatchObject({ userId: auditor.user.id, action: 'VIEW', resourceType: 'AUDIT_LOG' });
  });

  it.each([
    ['an unknown action', 'action=READ', 'action'],
    ['an unknown resource type', 'resourceType=SECRETS', 'resourceType'],
    ['a zero limit', 'limit=0', 'limit'],
    ['a non-numeric patient id', 'patientId=abc', 'patientId'],
    ['a malformed date', 'dateFrom=2025-13-01', 'dateFrom'],
    ['dates in the wrong order', 'dateFrom=2025-02-01&dateTo=2025-01-01', 'dateTo'],
  ])('refuses %s with a 400 naming the field, and writes no audit row', async (_name, qs, field) => {
    const before = await count('audit_logs');
    const res = await get(`/api/audit-logs?${qs}`, auditor.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(res.json().issues.map((i: { path: string }) => i.path)).toContain(field);
    expect(await count('audit_logs')).toBe(before);
  });

  it('caps a limit above 1,000 instead of refusing it, on a log longer than that', async () => {
    // 1,100 more rows in one statement, each appended (and hashed) as the writer does.
    const { newValues: _n, patientId: _p, ...entry } = auditEntry({ action: 'VIEW', resourceId: null });
    await t.db.execute(
      sql`SELECT ${auditAppendSql({ ...entry, newValues: { bulk: true }, patientId: null })} FROM generate_series(1, 1100)`,
    );
    expect(await count('audit_logs')).toBeGreaterThan(1100);
    const res = await get('/api/audit-logs?limit=50000', auditor.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(1000);
    expect((await newestAudit()).new_values).toMatchObject({ filters: { limit: 1000 }, returned: 1000 });
    expect((await get('/api/audit-logs?limit=5', auditor.cookie)).json()).toHaveLength(5);
  });

  it('pages past the first 1,000 rows with beforeId, and the reads audited meanwhile do not shift the pages (issue 21 item 15)', async () => {
    const all = await query<{ id: number }>(t.db, sql`SELECT id FROM audit_logs ORDER BY timestamp DESC, id DESC`);
    const first = (await get('/api/audit-logs?limit=100', auditor.cookie)).json() as { id: number }[];
    const seen: number[] = first.map((r) => r.id);
    let page = first;
    while (page.length === 100) {
      page = (await get(`/api/audit-logs?limit=100&beforeId=${page[page.length - 1]!.id}`, auditor.cookie)).json() as { id: number }[];
      seen.push(...page.map((r) => r.id));
    }
    // Every row that existed before the walk, once each, in the list's order: the walk's own VIEW rows (one per
    // page, all newer than the first page's newest row) never enter it.
    expect(all.length).toBeGreaterThan(1100);
    expect(seen).toEqual(all.map((r) => Number(r.id))); // bigint ids come back from SQL as text on PostgreSQL
    expect(await count('audit_logs')).toBeGreaterThan(all.length + 10);
  });

  it('an unknown beforeId is an empty page; a bad one is 400 and reads nothing', async () => {
    expect((await get('/api/audit-logs?beforeId=999999999', auditor.cookie)).json()).toEqual([]);
    const before = await count('audit_logs');
    const res = await get('/api/audit-logs?beforeId=abc', auditor.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(await count('audit_logs')).toBe(before);
  });
});

describe('compliance reports', () => {
  it('generates a report named after the signed-in user, ignoring generatedBy, and audits it', async () => {
    const res = await generate({ ...validReport, title: 'Break-glass review' }, auditor.cookie);
    expect(res.statusCode).toBe(201);
    const report = res.json();
    const [user] = await query<{ name: string }>(
      t.db,
      sql`SELECT first_name || ' ' || last_name AS name FROM users WHERE id = ${auditor.user.id}`,
    );
    expect(report).toMatchObject({ reportType: 'HIPAA', title: 'Break-glass review', status: 'COMPLETED', generatedBy: user!.name });
    expect(JSON.parse(report.reportData).summary.auditEvents).toBeGreaterThan(0);
    expect(await newestAudit()).toMatchObject({
      user_id: auditor.user.id,
      action: 'CREATE',
      resource_type: 'COMPLIANCE_REPORT',
      resource_id: String(report.id),
    });

    const list = await get('/api/compliance-reports?reportType=HIPAA&status=COMPLETED', auditor.cookie);
    expect(list.json()[0]).toMatchObject({ id: report.id, title: 'Break-glass review' });
    expect(await newestAudit()).toMatchObject({ action: 'VIEW', resource_type: 'COMPLIANCE_REPORT' });
  });

  it.each([
    ['a missing title', { ...validReport, title: undefined }, 'title'],
    ['an unknown report type', { ...validReport, reportType: 'GDPR' }, 'reportType'],
    ['a missing date', { ...validReport, dateTo: undefined }, 'dateTo'],
  ])('refuses %s with a 400 and stores nothing', async (_name, payload, field) => {
    const before = await count('compliance_reports');
    const res = await generate(payload, auditor.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json().issues.map((i: { path: string }) => i.path)).toContain(field);
    expect(await count('compliance_reports')).toBe(before);
  });

  it('refuses unknown list filters with a 400', async () => {
    expect((await get('/api/compliance-reports?status=PENDING', auditor.cookie)).statusCode).toBe(400);
  });

  it('leaves a valid audit chain behind all of the above', async () => {
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true });
  });
});
