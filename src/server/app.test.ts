import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPatient, signInPatient } from './test/portal-fixtures';
import { signInAs } from './test/staff';
import { createTestApp, type TestApp } from './test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the app shell', () => {
  it('reports the database reachable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: true,
      medicineChecks: { available: true, version: expect.any(String), problem: null },
    });
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
  });

  it('sends security headers with a strict script policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the OpenAPI document and its pages to signed-in staff', async () => {
    const { cookie } = await signInAs(t, 6);
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toContain('/api/setup/admin');
    const page = await t.app.inject({ method: 'GET', url: '/api/docs', headers: { cookie } });
    expect(page.statusCode).toBe(200);
  });

  it('refuses the API document to anonymous callers and to patients (401, no paths)', async () => {
    const patient = await insertPatient(t.db);
    const patientCookie = await signInPatient(t, patient);
    for (const url of ['/api/docs', '/api/docs/json', '/api/docs/yaml', '/api/docs/static/index.html']) {
      for (const headers of [{}, { cookie: patientCookie }]) {
        const res = await t.app.inject({ method: 'GET', url, headers });
        expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.body).not.toContain('/api/setup/admin');
      }
    }
  });
});
