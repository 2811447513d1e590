// DESIGN.md §4 over the immunization routes (decision 044): with a live grant for every user and each user's own
// facility asked for, each role is allowed or gets 403 by its permissions alone (the status records.read, the
// defaulter list defaulters.read: nurses and doctors, the schedule versions immunizations.schedule: administrators);
// signed out is 401.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { Permission } from '../../../contracts/constants';
import { createPatient } from '../../test/patient-fixtures';
import { ALL_ROLE_IDS, allows } from '../../test/permission-matrix';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

interface Probe {
  route: string;
  permission: Permission;
  request(patientId: number): InjectOptions;
  allowedStatus: number;
}

// createStaffUser's default facility.
const OWN_FACILITY = encodeURIComponent('Windhoek Central Hospital');
const PROBES: Probe[] = [
  {
    route: 'GET /api/patients/{id}/immunization-status',
    permission: 'records.read',
    request: (p) => ({ method: 'GET', url: `/api/patients/${p}/immunization-status` }),
    allowedStatus: 200,
  },
  {
    route: 'GET /api/defaulters',
    permission: 'defaulters.read',
    request: () => ({ method: 'GET', url: `/api/defaulters?facility=${OWN_FACILITY}&from=2026-01-01&to=2026-06-30` }),
    allowedStatus: 200,
  },
  {
    route: 'GET /api/immunization-schedules',
    permission: 'immunizations.schedule',
    request: () => ({ method: 'GET', url: '/api/immunization-schedules' }),
    allowedStatus: 200,
  },
  {
    route: 'POST /api/immunization-schedules',
    permission: 'immunizations.schedule',
    request: () => ({ method: 'POST', url: '/api/immunization-schedules', payload: { format: 'not a schedule' } }),
    allowedStatus: 400,
  },
];

let t: TestApp;
let patientId: number;
const cookies = new Map<number, string>();

beforeAll(async () => {
  t = await createTestApp();
  patientId = (await createPatient(t.db)).id;
  for (const roleId of ALL_ROLE_IDS) {
    const s = await signInAs(t, roleId);
    cookies.set(roleId, s.cookie);
    await t.db.execute(
      sql`INSERT INTO access_grants (user_id, patient_id, consent, expires_at) VALUES (${s.user.id}, ${patientId}, true, now() + interval '8 hours')`,
    );
  }
});
afterAll(async () => {
  await t?.close();
});

const cases = ALL_ROLE_IDS.flatMap((roleId) =>
  PROBES.map((p) => ({ roleId, ...p, allowed: allows(roleId, p.permission), label: allows(roleId, p.permission) ? 'allowed' : '403' })),
);

describe('immunization routes: permission matrix (DESIGN.md §4)', () => {
  it.each(cases)('role $roleId: $route is $label', async ({ roleId, request, allowed, allowedStatus }) => {
    const options = request(patientId);
    const res = await t.app.inject({ ...options, headers: { ...options.headers, cookie: cookies.get(roleId)! } });
    expect(res.statusCode).toBe(allowed ? allowedStatus : 403);
    if (!allowed) expect(res.json()).toEqual({ message: 'Insufficient permissions', code: 'PERMISSION_REQUIRED' });
  });

  it.each(PROBES)('signed out: $route is 401', async ({ request }) => {
    expect((await t.app.inject(request(patientId))).statusCode).toBe(401);
  });
});
