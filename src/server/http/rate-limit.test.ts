// Rate limits (issue 10 items 1, 2 and 8; docs/decisions/011-rate-limits-and-volume-alerts.md), through the real app:
// search and access grants per user, report generation per user, registration per IP; 429 RATE_LIMITED with
// Retry-After; the counters live in the database, so a second app process on the same database shares them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { auditRowCount, query } from '../test/audit-fixtures';
import { testClock } from '../test/clock';
import { createPatient } from '../test/patient-fixtures';
import { createStaffUser, signInAs } from '../test/staff';
import { createTestApp, testConfig, type TestApp } from '../test/test-app';

const clock = testClock(new Date('2026-11-23T10:00:00Z'));
const limit = (max: number, windowMs = 60_000) => ({ max, windowMs });
let t: TestApp;
let secondProcess: FastifyInstance;
const rateLimits = {
  registration: limit(2, 3_600_000),
  search: limit(3),
  accessGrant: limit(2, 3_600_000),
  report: limit(1, 3_600_000),
  badToken: limit(100_000),
  badTokenAddress: limit(100_000),
  passkeyChallenge: limit(2),
  portalCode: limit(100_000),
};

beforeAll(async () => {
  t = await createTestApp({ now: clock.now, rateLimits });
  await createStaffUser(t.db, { roleId: 1 }); // setup done: registration is open
  // Another worker on the same database, as WORKERS processes are.
  secondProcess = await buildApp({ db: t.db, config: testConfig({ now: clock.now, rateLimits }) });
  await secondProcess.ready();
});
afterAll(async () => {
  await secondProcess?.close();
  await t?.close();
});

const search = (app: FastifyInstance, cookie: string) =>
  app.inject({
    method: 'POST',
    url: '/api/patients/search',
    headers: { cookie },
    payload: { method: 'fuzzy-name', fullName: 'Selma Nangolo', ageRangeMin: 0, ageRangeMax: 120 },
  });

describe('search per user', () => {
  it('answers 429 RATE_LIMITED with Retry-After after the limit, across processes, without searching or auditing', async () => {
    const { cookie } = await signInAs(t, 3);
    expect((await search(t.app, cookie)).statusCode).toBe(200);
    expect((await search(secondProcess, cookie)).statusCode).toBe(200);
    expect((await search(t.app, cookie)).statusCode).toBe(200);
    const audited = await auditRowCount(t.db);
    const refused = await search(secondProcess, cookie);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(await auditRowCount(t.db)).toBe(audited);

    // Another user is not limited by this one.
    const other = await signInAs(t, 3);
    expect((await search(t.app, other.cookie)).statusCode).toBe(200);

    // The window ends.
    clock.advance(61_000);
    expect((await search(t.app, cookie)).statusCode).toBe(200);
  });

  it('exact searches count in their own statement (decision 014): the same counter as fuzzy ones, across processes; over it 429 with nothing read or audited', async () => {
    const { cookie } = await signInAs(t, 3);
    const patient = await createPatient(t.db);
    const exact = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: '/api/patients/search',
        headers: { cookie },
        payload: { method: 'id-number', idNumber: patient.idNumber },
      });
    expect((await exact(t.app)).json()).toHaveLength(1);
    expect((await search(secondProcess, cookie)).statusCode).toBe(200);
    expect((await exact(secondProcess)).json()).toHaveLength(1);
    const audited = await auditRowCount(t.db);
    const refused = await exact(t.app);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused.body).not.toContain(patient.idNumber);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await search(secondProcess, cookie)).statusCode).toBe(429);
    expect(await auditRowCount(t.db)).toBe(audited);

    clock.advance(61_000);
    expect((await exact(secondProcess)).json()).toHaveLength(1);
  });

  it('searches through the FHIR API count toward the same limit as the staff API (decision 028)', async () => {
    const { cookie } = await signInAs(t, 3);
    const patient = await createPatient(t.db);
    const fhir = () =>
      t.app.inject({
        method: 'GET',
        url: `/fhir/R4/Patient?identifier=${encodeURIComponent(`https://nhr.health.gov.na/fhir/sid/nc-number|${patient.idNumber}`)}`,
        headers: { cookie },
      });
    expect((await fhir()).statusCode).toBe(200);
    expect((await search(t.app, cookie)).statusCode).toBe(200);
    expect((await fhir()).statusCode).toBe(200);
    const audited = await auditRowCount(t.db);
    expect((await search(t.app, cookie)).statusCode).toBe(429);
    const refused = await fhir();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ resourceType: 'OperationOutcome' });
    expect(await auditRowCount(t.db)).toBe(audited);
    clock.advance(61_000);
  });

  it('a signed-out caller is refused by the guard (401) before any counting', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/patients/search',
      payload: { method: 'fuzzy-name', fullName: 'Selma Nangolo', ageRangeMin: 0, ageRangeMax: 120 },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('access grants per user', () => {
  it('refuses the third grant in the hour with 429 and writes no grant', async () => {
    const { cookie } = await signInAs(t, 3);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await createPatient(t.db)).id);
    const grant = (id: number) =>
      t.app.inject({ method: 'POST', url: `/api/patients/${id}/access`, headers: { cookie }, payload: { consent: true } });
    expect((await grant(ids[0]!)).statusCode).toBe(201);
    expect((await grant(ids[1]!)).statusCode).toBe(201);
    const refused = await grant(ids[2]!);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    const read = await t.app.inject({ method: 'GET', url: `/api/patients/${ids[2]}`, headers: { cookie } });
    expect(read.statusCode).toBe(403);
  });

  it("counts a grant through the FHIR API's $access in the same limit, in the grant's own statement (decision 028)", async () => {
    const { cookie, user } = await signInAs(t, 3);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await createPatient(t.db)).id);
    const viaApi = (id: number) =>
      t.app.inject({ method: 'POST', url: `/api/patients/${id}/access`, headers: { cookie }, payload: { consent: true } });
    const viaFhir = (id: number) =>
      t.app.inject({
        method: 'POST',
        url: `/fhir/R4/Patient/${id}/$access`,
        headers: { cookie },
        payload: { resourceType: 'Parameters', parameter: [{ name: 'consent', valueBoolean: true }] },
      });
    expect((await viaFhir(ids[0]!)).statusCode).toBe(201);
    expect((await viaApi(ids[1]!)).statusCode).toBe(201);
    const audited = await auditRowCount(t.db);
    expect((await viaFhir(ids[2]!)).statusCode).toBe(429);
    expect((await viaApi(ids[2]!)).statusCode).toBe(429);
    expect(await auditRowCount(t.db)).toBe(audited);
    const grants = await query<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM access_grants WHERE user_id = ${user.id}`);
    expect(grants[0]!.n).toBe(2);
  });
});

describe('report generation per user', () => {
  it('refuses the second report in the hour with 429', async () => {
    const { cookie } = await signInAs(t, 6);
    const generate = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/compliance-reports/generate',
        headers: { cookie },
        payload: { reportType: 'HIPAA', title: 'Monthly', dateFrom: '2026-11-01', dateTo: '2026-11-23' },
      });
    expect((await generate()).statusCode).toBe(201);
    const refused = await generate();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
  });
});

describe('registration per IP', () => {
  it('refuses the third registration from one address in the hour; another address may register', async () => {
    const register = (n: number, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: ip,
        payload: {
          firstName: 'Ndinelao',
          lastName: 'Amutenya',
          email: `ndinelao.${n}@health.gov.na`,
          password: 'a long enough password',
          department: 'Paramedicine',
          facility: 'Oshakati State Hospital',
          roleId: 403,
        },
      });
    expect((await register(1, '10.9.9.9')).statusCode).toBe(201);
    expect((await register(2, '10.9.9.9')).statusCode).toBe(201);
    const refused = await register(3, '10.9.9.9');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    expect((await register(4, '10.9.9.10')).statusCode).toBe(201);
  });
});

describe('passkey challenges per IP (decision 026)', () => {
  const options = (ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/passkey/options', remoteAddress: ip, payload: { purpose: 'sign_in' } });
  const challenges = async (): Promise<number> =>
    (await query<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM webauthn_challenges`))[0]!.n;

  it('refuses the third signed-out challenge from one address in the minute, storing nothing; another address is served', async () => {
    expect((await options('10.8.8.8')).statusCode).toBe(200);
    expect((await options('10.8.8.8')).statusCode).toBe(200);
    const stored = await challenges();
    const refused = await options('10.8.8.8');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await challenges()).toBe(stored);
    expect((await options('10.8.8.9')).statusCode).toBe(200);
  });
});
