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
