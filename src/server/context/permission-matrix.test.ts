// DESIGN.md §4 over every guarded route of staff identity: each role is allowed or gets 403; signed out and patient
// sessions get 401. Later modules add their own tables with the same helpers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { Permission } from '../../contracts/constants';
import { ALL_ROLE_IDS, allows, permissionsOf } from '../test/permission-matrix';
import { signInAs, type StaffUser } from '../test/staff';
import { createTestApp, type TestApp } from '../test/test-app';
import { createSession } from './session';

interface GuardedRoute {
  route: string;
  /** null: any signed-in staff user. */
  permission: Permission | null;
  request(user: StaffUser): InjectOptions;
  /** The status of an allowed call (these probes change nothing: unknown ids give 404). */
  allowedStatus: number;
}

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

const ROUTES: GuardedRoute[] = [
  { route: 'GET /api/auth/user', permission: null, request: () => ({ method: 'GET', url: '/api/auth/user' }), allowedStatus: 200 },
  {
    route: 'GET /api/codes',
    permission: 'records.read',
    request: () => ({ method: 'GET', url: '/api/codes?kind=medications&q=amox' }),
    allowedStatus: 200,
  },
  {
    route: 'PATCH /api/users/{own id}',
    permission: null,
    request: (u) => ({
      method: 'PATCH',
      url: `/api/users/${u.id}`,
      payload: { firstName: 'Test', lastName: 'User', email: u.email, department: 'Emergency', facility: 'Emed' },
    }),
    allowedStatus: 200,
  },
  {
    route: 'GET /api/admin/pending-users',
    permission: 'users.approve',
    request: () => ({ method: 'GET', url: '/api/admin/pending-users' }),
    allowedStatus: 200,
  },
  {
    route: 'GET /api/admin/active-users',
    permission: 'users.approve',
    request: () => ({ method: 'GET', url: '/api/admin/active-users' }),
    allowedStatus: 200,
  },
  {
    route: 'GET /api/admin/user-stats',
    permission: 'users.approve',
    request: () => ({ method: 'GET', url: '/api/admin/user-stats' }),
    allowedStatus: 200,
  },
  {
    route: 'POST /api/admin/users/{id}/approve',
    permission: 'users.approve',
    request: () => ({ method: 'POST', url: `/api/admin/users/${UNKNOWN_ID}/approve` }),
    allowedStatus: 404,
  },
  {
    route: 'GET /api/privacy-reviews',
    permission: 'audit.review',
    request: () => ({ method: 'GET', url: '/api/privacy-reviews' }),
    allowedStatus: 200,
  },
  {
    route: 'GET /api/privacy-reviews/summary',
    permission: 'audit.review',
    request: () => ({ method: 'GET', url: '/api/privacy-reviews/summary' }),
    allowedStatus: 200,
  },
  {
    route: 'GET /api/privacy-reviews/{id}',
    permission: 'audit.review',
    request: () => ({ method: 'GET', url: '/api/privacy-reviews/99999999' }),
    allowedStatus: 404,
  },
  {
    route: 'POST /api/privacy-reviews/{id}/verdict',
    permission: 'audit.review',
    request: () => ({ method: 'POST', url: '/api/privacy-reviews/99999999/verdict', payload: { verdict: 'JUSTIFIED', note: 'Probe' } }),
    allowedStatus: 404,
  },
  {
    route: 'PUT /api/patients/{id}/restricted',
    permission: 'patients.restrict',
    request: () => ({ method: 'PUT', url: '/api/patients/99999999/restricted', payload: { restricted: true } }),
    allowedStatus: 404,
  },
  // The duplicate review queue (issue 24): probes that change nothing (a decision on an unknown pair is 404).
  {
    route: 'GET /api/duplicates',
    permission: 'patients.merge',
    request: () => ({ method: 'GET', url: '/api/duplicates' }),
    allowedStatus: 200,
  },
  {
    route: 'GET /api/duplicates/scan',
    permission: 'patients.merge',
    request: () => ({ method: 'GET', url: '/api/duplicates/scan' }),
    allowedStatus: 200,
  },
  {
    route: 'GET /api/duplicates/{id}',
    permission: 'patients.merge',
    request: () => ({ method: 'GET', url: '/api/duplicates/99999999' }),
    allowedStatus: 404,
  },
  {
    route: 'POST /api/duplicates/{id}/decision',
    permission: 'patients.merge',
    request: () => ({ method: 'POST', url: '/api/duplicates/99999999/decision', payload: { decision: 'skip' } }),
    allowedStatus: 404,
  },
  // Joins (decision 048): probes on an unknown join (404) change nothing.
  {
    route: 'GET /api/patient-joins',
    permission: 'patients.merge',
    request: () => ({ method: 'GET', url: '/api/patient-joins' }),
    allowedStatus: 200,
  },
  {
    route: 'GET /api/patient-joins/{id}',
    permission: 'patients.merge',
    request: () => ({ method: 'GET', url: '/api/patient-joins/99999999' }),
    allowedStatus: 404,
  },
  {
    route: 'POST /api/patient-joins/{id}/approve',
    permission: 'patients.merge',
    request: () => ({ method: 'POST', url: '/api/patient-joins/99999999/approve' }),
    allowedStatus: 404,
  },
  {
    route: 'POST /api/patient-joins/{id}/undo',
    permission: 'patients.merge',
    request: () => ({ method: 'POST', url: '/api/patient-joins/99999999/undo', payload: { reason: 'Probe' } }),
    allowedStatus: 404,
  },
  {
    route: 'GET /api/admin/api-clients',
    permission: 'users.approve',
    request: () => ({ method: 'GET', url: '/api/admin/api-clients' }),
    allowedStatus: 200,
  },
  {
    route: 'POST /api/admin/api-clients',
    permission: 'users.approve',
    // A refused body (no scopes): the guard answers before validation, so an allowed role gets 400 and nothing is made.
    request: () => ({ method: 'POST', url: '/api/admin/api-clients', payload: { name: 'Probe', scopes: [] } }),
    allowedStatus: 400,
  },
  {
    route: 'POST /api/admin/api-clients/{id}/revoke',
    permission: 'users.approve',
    request: () => ({ method: 'POST', url: `/api/admin/api-clients/${UNKNOWN_ID}/revoke` }),
    allowedStatus: 404,
  },
  // SMART Backend Services keys and a client's own limits (decision 050); the SMART configuration and the token
  // endpoint are open to anyone (the token endpoint authenticates by a signed assertion: smart-backend-services.test.ts).
  {
    route: 'PUT /api/admin/api-clients/{id}/smart',
    permission: 'users.approve',
    request: () => ({
      method: 'PUT',
      url: `/api/admin/api-clients/${UNKNOWN_ID}/smart`,
      payload: { jwks: null, searchesPerMinute: 10, openingsPerHour: null },
    }),
    allowedStatus: 404,
  },
  {
    route: 'DELETE /api/admin/users/{id}/reject',
    permission: 'users.approve',
    request: () => ({ method: 'DELETE', url: `/api/admin/users/${UNKNOWN_ID}/reject` }),
    allowedStatus: 404,
  },
  // Passkeys (decision 026): re-authentication with a passkey is for staff only; an empty answer is refused as input.
  {
    route: 'POST /api/auth/reauth/passkey',
    permission: null,
    request: () => ({ method: 'POST', url: '/api/auth/reauth/passkey', payload: { response: {} } }),
    allowedStatus: 400,
  },
  // An administrator's reset of any second factor, a passkey included (issue 21 item 13): unknown user 404.
  {
    route: 'DELETE /api/admin/users/{id}/second-factors',
    permission: 'users.approve',
    request: () => ({ method: 'DELETE', url: `/api/admin/users/${UNKNOWN_ID}/second-factors` }),
    allowedStatus: 404,
  },
  // Name changes waiting for an administrator (issue 21 item 10): the list, and a decision on an unknown request (404).
  {
    route: 'GET /api/admin/name-changes',
    permission: 'users.approve',
    request: () => ({ method: 'GET', url: '/api/admin/name-changes' }),
    allowedStatus: 200,
  },
  {
    route: 'POST /api/admin/name-changes/{id}/approve',
    permission: 'users.approve',
    request: () => ({ method: 'POST', url: '/api/admin/name-changes/999999/approve' }),
    allowedStatus: 404,
  },
  {
    route: 'POST /api/admin/name-changes/{id}/reject',
    permission: 'users.approve',
    request: () => ({ method: 'POST', url: '/api/admin/name-changes/999999/reject' }),
    allowedStatus: 404,
  },
  // Re-authentication with the password (issue 21 item 8): staff only; an empty password is refused as input.
  {
    route: 'POST /api/auth/reauth/password',
    permission: null,
    request: () => ({ method: 'POST', url: '/api/auth/reauth/password', payload: { password: '' } }),
    allowedStatus: 400,
  },
  // An administrator's reset of a lost authenticator app (decision 024): the unknown user is a 404 and changes nothing.
  {
    route: 'GET /api/admin/second-factors',
    permission: 'users.approve',
    request: () => ({ method: 'GET', url: '/api/admin/second-factors' }),
    allowedStatus: 200,
  },
  {
    route: 'DELETE /api/admin/users/{id}/totp',
    permission: 'users.approve',
    request: () => ({ method: 'DELETE', url: `/api/admin/users/${UNKNOWN_ID}/totp` }),
    allowedStatus: 404,
  },
  // The desk's portal view and the two-person reset (issue 21 item 1, decision 031): an unknown patient is a 404.
  {
    route: 'GET /api/patients/{id}/portal-status',
    permission: 'patients.create',
    request: () => ({ method: 'GET', url: '/api/patients/99999999/portal-status' }),
    allowedStatus: 404,
  },
  {
    route: 'POST /api/patients/{id}/portal-reset/confirm',
    permission: 'patients.create',
    request: () => ({ method: 'POST', url: '/api/patients/99999999/portal-reset/confirm' }),
    allowedStatus: 404,
  },
  {
    route: 'POST /api/patients/{id}/portal-activation',
    permission: 'patients.create',
    request: () => ({ method: 'POST', url: '/api/patients/99999999/portal-activation' }),
    allowedStatus: 404,
  },
  // The medicine checks seen from review (decision 045): the monthly report for auditors and administrators, the
  // overrides in the privacy review, and every finding of a record (an unknown patient is a 404).
  {
    route: 'GET /api/medicine-checks/report',
    permission: 'reports.read',
    request: () => ({ method: 'GET', url: '/api/medicine-checks/report' }),
    allowedStatus: 200,
  },
  {
    route: 'GET /api/privacy-reviews/medicine-overrides',
    permission: 'audit.review',
    request: () => ({ method: 'GET', url: '/api/privacy-reviews/medicine-overrides' }),
    allowedStatus: 200,
  },
  {
    route: 'GET /api/patients/{id}/medicine-checks',
    permission: 'records.read',
    request: () => ({ method: 'GET', url: '/api/patients/99999999/medicine-checks' }),
    allowedStatus: 404,
  },
  // Offline clinic mode (issue 27, decision 061). Switching it on: a user who may read records but has no second factor
  // is refused by the service (403 OFFLINE_NEEDS_SECOND_FACTOR), the others by the guard. A device's own routes are
  // any staff member's: an unknown device (or another user's) is a 404 for everyone.
  {
    route: 'POST /api/devices',
    permission: 'records.read',
    request: () => ({ method: 'POST', url: '/api/devices', payload: { label: 'Probe' } }),
    allowedStatus: 403,
  },
  {
    route: 'GET /api/devices',
    permission: 'users.approve',
    request: () => ({ method: 'GET', url: '/api/devices' }),
    allowedStatus: 200,
  },
  {
    route: 'POST /api/devices/{id}/revoke',
    permission: 'users.approve',
    request: () => ({ method: 'POST', url: `/api/devices/${UNKNOWN_ID}/revoke`, payload: {} }),
    allowedStatus: 404,
  },
  ...(['contact', 'sync', 'discard'] as const).map((route): GuardedRoute => ({
    route: `POST /api/devices/{id}/${route}`,
    permission: null,
    request: () => ({
      method: 'POST',
      url: `/api/devices/${UNKNOWN_ID}/${route}`,
      payload: route === 'sync' ? { writes: [] } : route === 'discard' ? { clientId: UNKNOWN_ID, reason: 'Probe' } : undefined,
    }),
    allowedStatus: 404,
  })),
  {
    route: 'GET /api/devices/{id}/offline-set',
    permission: null,
    request: () => ({ method: 'GET', url: `/api/devices/${UNKNOWN_ID}/offline-set` }),
    allowedStatus: 404,
  },
  {
    route: 'GET /api/offline-reviews',
    permission: 'patients.merge',
    request: () => ({ method: 'GET', url: '/api/offline-reviews' }),
    allowedStatus: 200,
  },
  {
    route: 'POST /api/offline-reviews/{id}/close',
    permission: 'patients.merge',
    request: () => ({ method: 'POST', url: '/api/offline-reviews/99999999/close', payload: {} }),
    allowedStatus: 404,
  },
];

let t: TestApp;
const signedIn = new Map<number, { cookie: string; user: StaffUser }>();
let patientCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const roleId of ALL_ROLE_IDS) signedIn.set(roleId, await signInAs(t, roleId));
  patientCookie = `nhr_sid=${(await createSession(t.db, { kind: 'patient', patientId: 1 }, new Date())).token}`;
});
afterAll(async () => {
  await t?.close();
});

const cases = ALL_ROLE_IDS.flatMap((roleId) =>
  ROUTES.map((r) => {
    const allowed = r.permission === null || allows(roleId, r.permission);
    return { roleId, ...r, allowed, label: allowed ? 'allowed' : '403' };
  }),
);

describe('permission matrix (DESIGN.md §4)', () => {
  it.each(cases)('role $roleId: $route is $label', async ({ roleId, request, allowed, allowedStatus }) => {
    const { cookie, user } = signedIn.get(roleId)!;
    const options = request(user);
    const res = await t.app.inject({ ...options, headers: { ...options.headers, cookie } });
    expect(res.statusCode).toBe(allowed ? allowedStatus : 403);
    if (!allowed) expect(res.json()).toEqual({ message: 'Insufficient permissions', code: 'PERMISSION_REQUIRED' });
  });

  it.each(ROUTES)('signed out: $route is 401', async ({ request }) => {
    const res = await t.app.inject(request({ id: UNKNOWN_ID, email: 'nobody@health.test.na', password: '' }));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it.each(ROUTES)('patient session: $route is 401', async ({ request }) => {
    const options = request({ id: UNKNOWN_ID, email: 'nobody@health.test.na', password: '' });
    const res = await t.app.inject({ ...options, headers: { cookie: patientCookie } });
    expect(res.statusCode).toBe(401);
  });

  it.each(ALL_ROLE_IDS)('role %i is told exactly its DESIGN.md §4 permissions', async (roleId) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: signedIn.get(roleId)!.cookie } });
    expect(res.json().permissions).toEqual(permissionsOf(roleId));
  });
});
