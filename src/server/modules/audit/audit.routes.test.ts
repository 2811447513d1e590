// The audit API through the real app: permissions by role, filter validation, and reads that audit themselves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../contracts/constants';
import { ALL_ROLE_IDS, allows } from '../../test/permission-matrix';
import { createTestApp, type TestApp } from '../../test/test-app';
import { signInAs } from '../../test/staff';
import { queryRows } from '../../test/sql';

let t: TestApp;
const cookies = new Map<number, string>();
beforeAll(async () => {
  t = await createTestApp();
  for (const roleId of ALL_ROLE_IDS) cookies.set(roleId, (await signInAs(t, roleId)).cookie);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, roleId?: number) =>
  t.app.inject({ method: 'GET', url, headers: roleId ? { cookie: cookies.get(roleId)! } : {} });
const generate = (payload: unknown, roleId: number = ROLE_IDS.auditor) =>
  t.app.inject({ method: 'POST', url: '/api/compliance-reports/generate', headers: { cookie: cookies.get(roleId)! }, payload: payload as object });
const today = new Date().toISOString().slice(0, 10);
const validReport = { reportType: 'ACCESS_LOG', title: 'Access review', dateFrom: '2020-01-01', dateTo: today };

describe('audit API permissions (DESIGN.md §4)', () => {
  it.each(ALL_ROLE_IDS)('role %i gets the audit log only with audit.read', async (roleId) => {
    const res = await get('/api/audit-logs', roleId);
    expect(res.statusCode).toBe(allows(roleId, 'audit.read') ? 200 : 403);
  });

  it.each(ALL_ROLE_IDS)('role %i lists and generates reports only with reports.read / reports.generate', async (roleId) => {
    expect((await get('/api/compliance-reports', roleId)).statusCode).toBe(allows(roleId, 'reports.read') ? 200 : 403);
    expect((await generate(validReport, roleId)).statusCode).toBe(allows(roleId, 'reports.generate') ? 201 : 403);
  });

  it('refuses the signed-out with 401', async () => {
    expect((await get('/api/audit-logs')).statusCode).toBe(401);
    expect((await get('/api/compliance-reports')).statusCode).toBe(401);
    const res = await t.app.inject({ method: 'POST', url: '/api/compliance-reports/generate', payload: validReport });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/audit-logs', () => {
  it('audits its own reading, with the filters', async () => {
    const before = await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs WHERE resource_type = 'AUDIT_LOG'`);
    const res = await get('/api/audit-logs?action=VIEW&resourceType=all', ROLE_IDS.auditor);
    expect(res.statusCode).toBe(200);
    for (const row of res.json()) expect(row.action).toBe('VIEW');
    const after = await queryRows<{ n: number; nv: { filters: { action: string } } }>(
      t.db,
      sql`SELECT count(*) OVER ()::int AS n, new_values AS nv FROM audit_logs WHERE resource_type = 'AUDIT_LOG' ORDER BY id DESC LIMIT 1`,
    );
    expect(after[0]!.n).toBe(before[0]!.n + 1);
    expect(after[0]!.nv.filters.action).toBe('VIEW');
  });

  it.each([
    ['an unknown action', '?action=PEEK'],
    ['an unknown resource type', '?resourceType=SECRETS'],
    ['a bad date', '?dateFrom=2024-13-40'],
    ['a non-numeric patient id', '?patientId=abc'],
    ['dates out of order', '?dateFrom=2025-02-01&dateTo=2025-01-01'],
  ])('answers %s with 400 and writes no audit row', async (_name, query) => {
    const count = async () => (await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs`))[0]!.n;
    const before = await count();
    const res = await get(`/api/audit-logs${query}`, ROLE_IDS.auditor);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(await count()).toBe(before);
  });

  it('caps the limit at 1,000', async () => {
    const res = await get('/api/audit-logs?limit=50000', ROLE_IDS.auditor);
    expect(res.statusCode).toBe(200);
    expect(res.json().length).toBeLessThanOrEqual(1000);
  });
});

describe('compliance reports', () => {
  it('stores a generated report as COMPLETED by the signed-in user, ignoring generatedBy', async () => {
    const res = await generate({ ...validReport, title: 'Who saw what', generatedBy: 'Somebody Else' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ title: 'Who saw what', status: 'COMPLETED', generatedBy: 'Test Role6', reportType: 'ACCESS_LOG' });
    expect(() => JSON.parse(res.json().reportData)).not.toThrow();
    const listed = await get('/api/compliance-reports?reportType=ACCESS_LOG&status=all', ROLE_IDS.auditor);
    expect(listed.json().map((r: { title: string }) => r.title)).toContain('Who saw what');
  });

  it.each([
    ['a missing title', { ...validReport, title: '' }],
    ['missing dates', { reportType: 'HIPAA', title: 'x' }],
    ['an unknown type', { ...validReport, reportType: 'GDPR' }],
    ['an unknown field', { ...validReport, status: 'DRAFT' }],
  ])('refuses %s with 400 and stores nothing', async (_name, body) => {
    const count = async () => (await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM compliance_reports`))[0]!.n;
    const before = await count();
    const res = await generate(body);
    expect(res.statusCode).toBe(400);
    expect(await count()).toBe(before);
  });
});
