// DESIGN.md §4 over every record route: with a live grant in place for every user, each role is allowed or gets
// 403 by its permissions alone (reads, histories and changes records.read; adds, edits and deletes records.write); signed out and patient
// sessions get 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import type { Permission } from '../../../contracts/constants';
import { RECORD_KINDS } from '../../../contracts/kinds';
import { createSession } from '../../context/session';
import { createPatient } from '../../test/patient-fixtures';
import { ALL_ROLE_IDS, allows } from '../../test/permission-matrix';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { signInAs, type StaffUser } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

interface Probe {
  route: string;
  permission: Permission;
  request(patientId: number): InjectOptions;
  allowedStatus: number;
}

const PROBES: Probe[] = [
  ...RECORD_KINDS.flatMap((kind): Probe[] => [
    {
      route: `GET /api/patients/{id}/${kind}`,
      permission: 'records.read',
      request: (p) => ({ method: 'GET', url: `/api/patients/${p}/${kind}` }),
      allowedStatus: 200,
    },
    {
      route: `POST /api/patients/{id}/${kind}`,
      permission: 'records.write',
      request: (p) => ({ method: 'POST', url: `/api/patients/${p}/${kind}`, payload: SAMPLE_INPUTS[kind] }),
      allowedStatus: 201,
    },
    {
      route: `DELETE /api/${kind}/{id}`,
      permission: 'records.write',
      request: () => ({ method: 'DELETE', url: `/api/${kind}/999999`, payload: { reason: 'Wrong patient' } }),
      allowedStatus: 404,
    },
    {
      route: `PATCH /api/${kind}/{id}`,
      permission: 'records.write',
      request: () => ({ method: 'PATCH', url: `/api/${kind}/999999`, headers: { 'if-match': '"1"' }, payload: {} }),
      allowedStatus: 404,
    },
    {
      route: `GET /api/${kind}/{id}/history`,
      permission: 'records.read',
      request: () => ({ method: 'GET', url: `/api/${kind}/999999/history` }),
      allowedStatus: 404,
    },
  ]),
  {
    route: 'GET /api/patients/{id}/changes',
    permission: 'records.read',
    request: (p) => ({ method: 'GET', url: `/api/patients/${p}/changes` }),
    allowedStatus: 200,
  },
  {
    route: 'GET /api/patients/{id}/record-summary',
    permission: 'records.read',
    request: (p) => ({ method: 'GET', url: `/api/patients/${p}/record-summary` }),
    allowedStatus: 200,
  },
  {
    route: 'GET /api/patients/{id}',
    permission: 'records.read',
    request: (p) => ({ method: 'GET', url: `/api/patients/${p}` }),
    allowedStatus: 200,
  },
  {
    route: 'POST /api/patients/{id}/access',
    permission: 'records.read',
    request: (p) => ({ method: 'POST', url: `/api/patients/${p}/access`, payload: { consent: true } }),
    allowedStatus: 201,
  },
];

let t: TestApp;
let patientId: number;
const signedIn = new Map<number, { cookie: string; user: StaffUser }>();
let patientCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  patientId = (await createPatient(t.db)).id;
  for (const roleId of ALL_ROLE_IDS) {
    const s = await signInAs(t, roleId);
    signedIn.set(roleId, s);
    // A live grant for everyone, written directly: only the permission can refuse below.
    await t.db.execute(
      sql`INSERT INTO access_grants (user_id, patient_id, consent, expires_at) VALUES (${s.user.id}, ${patientId}, true, now() + interval '8 hours')`,
    );
  }
  patientCookie = `nhr_sid=${(await createSession(t.db, { kind: 'patient', patientId }, new Date())).token}`;
});
afterAll(async () => {
  await t?.close();
});

const cases = ALL_ROLE_IDS.flatMap((roleId) =>
  PROBES.map((p) => ({ roleId, ...p, allowed: allows(roleId, p.permission), label: allows(roleId, p.permission) ? 'allowed' : '403' })),
);

describe('record routes: permission matrix (DESIGN.md §4)', () => {
  it.each(cases)('role $roleId: $route is $label', async ({ roleId, request, allowed, allowedStatus }) => {
    const options = request(patientId);
    const res = await t.app.inject({ ...options, headers: { ...options.headers, cookie: signedIn.get(roleId)!.cookie } });
    expect(res.statusCode).toBe(allowed ? allowedStatus : 403);
    if (!allowed) expect(res.json()).toEqual({ message: 'Insufficient permissions', code: 'PERMISSION_REQUIRED' });
  });

  it('lets Basic Life Support read but not write, in the database the app runs on (not only in the test matrix)', async () => {
    const res = await t.db.execute(
      sql`SELECT p.name FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id WHERE rp.role_id = 405 AND p.name LIKE 'records.%'`,
    );
    expect((res as unknown as { rows: { name: string }[] }).rows.map((r) => r.name)).toEqual(['records.read']);
    const bls = signedIn.get(405)!.cookie;
    expect((await t.app.inject({ method: 'GET', url: `/api/patients/${patientId}/diagnoses`, headers: { cookie: bls } })).statusCode).toBe(
      200,
    );
    const write = await t.app.inject({
      method: 'POST',
      url: `/api/patients/${patientId}/diagnoses`,
      headers: { cookie: bls },
      payload: SAMPLE_INPUTS.diagnoses,
    });
    expect(write.statusCode).toBe(403);
  });

  it.each(PROBES)('signed out: $route is 401', async ({ request }) => {
    const res = await t.app.inject(request(patientId));
    expect(res.statusCode).toBe(401);
  });

  it.each(PROBES)('patient session (even their own record): $route is 401', async ({ request }) => {
    const options = request(patientId);
    const res = await t.app.inject({ ...options, headers: { ...options.headers, cookie: patientCookie } });
    expect(res.statusCode).toBe(401);
  });
});
