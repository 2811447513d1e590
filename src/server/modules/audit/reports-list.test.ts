// Reports at volume (issue 10 item 2): many large stored reports no longer make the list large (it is paged and
// carries no reportData), the data is downloaded as a stream, and an authorised user archives a report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { auditRowCount, query } from '../../test/audit-fixtures';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let auditor: string;
const REPORTS = 60;
const DATA_CHARS = 300_000; // 60 x 300 KB: 18 MB of report data in the table

beforeAll(async () => {
  t = await createTestApp();
  auditor = (await signInAs(t, 6)).cookie;
  // A fast SQL insert instead of generating each report: what the list must not carry.
  await t.db.execute(sql`
    INSERT INTO compliance_reports (report_type, title, date_range, generated_by, generated_at, status, report_data)
    SELECT 'HIPAA', 'Bulk ' || g, '{"from":"2026-01-01","to":"2026-11-01"}', 'Loader', now() - make_interval(secs => g),
      'COMPLETED', '{"pad":"' || repeat(md5(g::text), ${DATA_CHARS / 32}) || '"}'
    FROM generate_series(1, ${REPORTS}) AS g`);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const get = (url: string, cookie = auditor) => t.app.inject({ method: 'GET', url, headers: { cookie } });

describe('GET /api/compliance-reports with many large reports', () => {
  it('answers 200 with a small page and no reportData', async () => {
    const res = await get('/api/compliance-reports');
    expect(res.statusCode).toBe(200);
    const items = res.json() as Record<string, unknown>[];
    expect(items).toHaveLength(50);
    expect(items.every((r) => !('reportData' in r) && r.detailsCapped === false)).toBe(true);
    expect(res.body.length).toBeLessThan(50_000);
  });

  it('pages: page 2 holds the rest, newest first; a page size over 100 is refused', async () => {
    const page2 = (await get('/api/compliance-reports?page=2&pageSize=50')).json() as { title: string }[];
    expect(page2.map((r) => r.title)).toEqual(Array.from({ length: REPORTS - 50 }, (_, i) => `Bulk ${51 + i}`));
    expect((await get('/api/compliance-reports?pageSize=101')).statusCode).toBe(400);
    expect((await get('/api/compliance-reports?page=0')).statusCode).toBe(400);
  });

  it('says how many reports the filters match over all pages (X-Total-Count), so the screen can page', async () => {
    expect((await get('/api/compliance-reports')).headers['x-total-count']).toBe(String(REPORTS));
    expect((await get('/api/compliance-reports?page=2')).headers['x-total-count']).toBe(String(REPORTS));
    expect((await get('/api/compliance-reports?status=DRAFT')).headers['x-total-count']).toBe('0');
  });
});

describe('GET /api/compliance-reports/{id}/download', () => {
  it('streams the stored data, audited', async () => {
    const [row] = await query<{ id: number; data: string }>(
      t.db,
      sql`SELECT id, report_data AS data FROM compliance_reports WHERE title = 'Bulk 7'`,
    );
    const before = await auditRowCount(t.db);
    const res = await get(`/api/compliance-reports/${row!.id}/download`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toContain('attachment');
    expect(res.body).toBe(row!.data);
    expect(await auditRowCount(t.db)).toBe(before + 1);
  });

  it('404 for an unknown report, 400 for a bad id, 403 for a doctor, 401 signed out', async () => {
    expect((await get('/api/compliance-reports/999999/download')).json().code).toBe('NOT_FOUND');
    expect((await get('/api/compliance-reports/abc/download')).statusCode).toBe(400);
    const doctor = (await signInAs(t, 3)).cookie;
    expect((await get('/api/compliance-reports/1/download', doctor)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/compliance-reports/1/download' })).statusCode).toBe(401);
  });
});

describe('POST /api/compliance-reports/{id}/archive', () => {
  const archive = (id: number | string, cookie = auditor) =>
    t.app.inject({ method: 'POST', url: `/api/compliance-reports/${id}/archive`, headers: { cookie }, payload: {} });

  it('archives: gone from the list, kept in the table, audited; a second archive is 404', async () => {
    const [row] = await query<{ id: number }>(t.db, sql`SELECT id FROM compliance_reports WHERE title = 'Bulk 1'`);
    const before = await auditRowCount(t.db);
    const res = await archive(row!.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: row!.id, archived: true });
    expect(await auditRowCount(t.db)).toBe(before + 1);
    const listed = (await get('/api/compliance-reports?pageSize=100')).json() as { id: number }[];
    expect(listed.map((r) => r.id)).not.toContain(row!.id);
    expect(listed).toHaveLength(REPORTS - 1);
    const [kept] = await query<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM compliance_reports WHERE id = ${row!.id}`);
    expect(kept!.n).toBe(1);
    expect((await archive(row!.id)).statusCode).toBe(404);
  });

  it.each([
    [3, 'doctor'],
    [4, 'nurse'],
    [5, 'receptionist'],
  ])('refuses role %i (%s) with 403 and archives nothing', async (roleId) => {
    const [row] = await query<{ id: number }>(t.db, sql`SELECT id FROM compliance_reports WHERE title = 'Bulk 2'`);
    const cookie = (await signInAs(t, roleId)).cookie;
    expect((await archive(row!.id, cookie)).statusCode).toBe(403);
    const [n] = await query<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM compliance_report_archives WHERE report_id = ${row!.id}`,
    );
    expect(n!.n).toBe(0);
  });

  it('404 for an unknown report, 400 for a bad id', async () => {
    expect((await archive(999999)).statusCode).toBe(404);
    expect((await archive('1e3')).statusCode).toBe(400);
  });
});

describe('archived reports: listed under their filter, and restored (issue 21 item 15)', () => {
  const post = (id: number | string, action: 'archive' | 'restore', cookie = auditor) =>
    t.app.inject({ method: 'POST', url: `/api/compliance-reports/${id}/${action}`, headers: { cookie }, payload: {} });
  const idOf = async (title: string): Promise<number> =>
    (await query<{ id: number }>(t.db, sql`SELECT id FROM compliance_reports WHERE title = ${title}`))[0]!.id;
  const titles = async (url: string): Promise<string[]> => ((await get(url)).json() as { title: string }[]).map((r) => r.title);

  it('the ARCHIVED filter lists archived reports with status ARCHIVED, and only them', async () => {
    const id = await idOf('Bulk 10');
    expect((await post(id, 'archive')).statusCode).toBe(200);
    const res = await get('/api/compliance-reports?status=ARCHIVED&pageSize=100');
    const archived = res.json() as { id: number; title: string; status: string }[];
    expect(archived.map((r) => r.title)).toContain('Bulk 10');
    expect(archived.every((r) => r.status === 'ARCHIVED')).toBe(true);
    expect(res.headers['x-total-count']).toBe(String(archived.length));
    expect(await titles('/api/compliance-reports?status=COMPLETED&pageSize=100')).not.toContain('Bulk 10');
  });

  it('restore brings a report back into the list, audited; it can be archived again and restored again', async () => {
    const id = await idOf('Bulk 11');
    expect((await post(id, 'archive')).statusCode).toBe(200);
    const before = await auditRowCount(t.db);
    const res = await post(id, 'restore');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id, archived: false });
    expect(await auditRowCount(t.db)).toBe(before + 1);
    const [audit] = await query<{ action: string; old_values: unknown; new_values: unknown }>(
      t.db,
      sql`SELECT action, old_values, new_values FROM audit_logs WHERE resource_type = 'COMPLIANCE_REPORT' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toMatchObject({ action: 'UPDATE', old_values: { archived: true }, new_values: { archived: false } });
    expect(await titles('/api/compliance-reports?pageSize=100')).toContain('Bulk 11');
    expect(await titles('/api/compliance-reports?status=ARCHIVED&pageSize=100')).not.toContain('Bulk 11');
    expect((await post(id, 'archive')).statusCode).toBe(200);
    expect((await post(id, 'restore')).statusCode).toBe(200);
    expect(await titles('/api/compliance-reports?pageSize=100')).toContain('Bulk 11');
  });

  it('restoring a report that is not archived, or unknown, is 404 and writes nothing; a bad id is 400', async () => {
    const id = await idOf('Bulk 12');
    const before = await auditRowCount(t.db);
    const events = async () => (await query<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM compliance_report_archives`))[0]!.n;
    const eventsBefore = await events();
    expect((await post(id, 'restore')).json().code).toBe('NOT_FOUND');
    expect((await post(999999, 'restore')).statusCode).toBe(404);
    expect((await post('x', 'restore')).statusCode).toBe(400);
    expect(await auditRowCount(t.db)).toBe(before);
    expect(await events()).toBe(eventsBefore);
  });

  it.each([
    [3, 'doctor', 'Bulk 13'],
    [5, 'receptionist', 'Bulk 14'],
  ])('refuses role %i (%s) a restore with 403 and restores nothing', async (roleId, _role, title) => {
    const id = await idOf(title);
    expect((await post(id, 'archive')).statusCode).toBe(200);
    const cookie = (await signInAs(t, roleId)).cookie;
    expect((await post(id, 'restore', cookie)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `/api/compliance-reports/${id}/restore`, payload: {} })).statusCode).toBe(401);
    expect(await titles('/api/compliance-reports?status=ARCHIVED&pageSize=100')).toContain(title);
  });
});
