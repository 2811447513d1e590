// DESIGN.md §4: a patient (portal session) gets 401/403 from every endpoint that is not the portal's or public.
// The routes are read from the app's own OpenAPI document, so routes added later are covered too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPatient, signInPatient } from '../../test/portal-fixtures';
import { createStaffUser } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

/** Endpoints anyone may call (signed out included), and the patient's own. */
const PUBLIC = new Set([
  'GET /api/health',
  'GET /api/setup/status',
  'POST /api/setup/admin',
  'POST /api/auth/login',
  // The second step of a staff sign-in: it reads the pending sign-in, not a session (decision 024).
  'POST /api/auth/login/second-factor',
  // Enrolment serves signed-in staff and a sign-in pending enrolment; the service refuses anyone else (mfa.test.ts).
  'POST /api/auth/mfa/totp/enrol',
  'POST /api/auth/mfa/totp/confirm',
  'POST /api/auth/register',
  'POST /api/auth/logout',
  'POST /api/auth/patient-login',
  'POST /api/auth/patient-activate',
  'GET /api/roles',
  // Passkeys (decision 026): signing in with one is public (a patient's passkey is refused on the staff sign-in,
  // passkeys.test.ts); the step after a staff password reads the pending sign-in; a patient manages their own.
  'POST /api/auth/passkey/options',
  'POST /api/auth/passkey-login',
  'POST /api/auth/login/second-factor/passkey',
  'POST /api/auth/patient-passkey-login',
  'GET /api/auth/passkeys',
  'POST /api/auth/passkeys/registration-options',
  'POST /api/auth/passkeys',
  'DELETE /api/auth/passkeys/{id}',
  'GET /api/patient-portal/me',
  'GET /api/patient-portal/access-log',
  'GET /api/patient-portal/access-summary',
  // The patient's PIN again before adding a passkey (issue 21 item 2, portal-reset.test.ts).
  'POST /api/patient-portal/reauth',
  // The notice after a reset two staff members confirmed (issue 21 item 1, portal-two-person-reset.test.ts).
  'GET /api/patient-portal/notices',
  'POST /api/patient-portal/notices/dismiss',
  // The patient's own immunization schedule (issue 25 item 2, immunization.test.ts).
  'GET /api/patient-portal/immunization-status',
  // The patient's records joined into one, and the report that a join is wrong (issue 24 item 7, portal-joins.test.ts).
  'GET /api/patient-portal/joins',
  'POST /api/patient-portal/joins/{id}/report',
  // Passkeys (decision 026): sign-in with a passkey is public like the password sign-in, and the self-service routes
  // serve staff and patients alike, each acting only on the caller's own passkeys (passkeys.test.ts proves that).
  'POST /api/auth/passkey/options',
  'POST /api/auth/passkey-login',
  'POST /api/auth/login/second-factor/passkey',
  'GET /api/auth/passkeys',
  'POST /api/auth/passkeys',
  'POST /api/auth/passkeys/registration-options',
  'DELETE /api/auth/passkeys/{id}',
]);

let t: TestApp;
let cookie: string;
let patientId: number;
let staffId: string;

beforeAll(async () => {
  t = await createTestApp();
  const patient = await insertPatient(t.db);
  patientId = patient.id;
  staffId = (await createStaffUser(t.db, { roleId: 1 })).id;
  cookie = await signInPatient(t, patient);
});
afterAll(async () => {
  await t?.close();
});

function apiRoutes(): { method: string; url: string }[] {
  const doc = t.app.swagger() as { paths?: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths ?? {}).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map((m) => ({ method: m.toUpperCase(), url: path })),
  );
}

/** Path parameters filled with the patient's own id (and a real staff id for user routes): the worst case. */
const fill = (url: string): string =>
  url.replace(/\{\w+\}/g, () => (url.startsWith('/api/admin/users') || url.startsWith('/api/users') ? staffId : String(patientId)));

describe('a patient session on staff endpoints', () => {
  it('finds the staff endpoints in the OpenAPI document', () => {
    const routes = apiRoutes().map((r) => `${r.method} ${r.url}`);
    for (const known of [
      'GET /api/auth/user',
      'GET /api/admin/pending-users',
      'PATCH /api/users/{id}',
      'POST /api/auth/patient-login',
      // A pair with both whole records (decision 046) and joins (decision 048): staff only.
      'GET /api/duplicates/{id}',
      'POST /api/duplicates/{id}/decision',
      'GET /api/patient-joins',
      'GET /api/patient-joins/{id}',
      'POST /api/patient-joins/{id}/approve',
      'POST /api/patient-joins/{id}/undo',
    ]) {
      expect(routes).toContain(known);
    }
  });

  it('answers 401 or 403 on every staff endpoint, including every /api/patients/* route present', async () => {
    const staffRoutes = apiRoutes().filter(
      (r) => !PUBLIC.has(`${r.method} ${r.url}`) && r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'),
    );
    expect(staffRoutes.length).toBeGreaterThanOrEqual(6);
    for (const route of staffRoutes) {
      const url = fill(route.url);
      const res = await t.app.inject({
        method: route.method as 'GET',
        url,
        headers: { cookie },
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      expect([401, 403], `${route.method} ${url} answered ${res.statusCode}: ${res.body}`).toContain(res.statusCode);
    }
  });

  it('answers 401 or 403 on the staff sign-in steps given a well-formed body (they validate before they look)', async () => {
    for (const url of ['/api/auth/login/second-factor', '/api/auth/mfa/totp/enrol', '/api/auth/mfa/totp/confirm']) {
      const res = await t.app.inject({ method: 'POST', url, headers: { cookie }, payload: { code: '123456' } });
      expect([401, 403], `POST ${url} answered ${res.statusCode}: ${res.body}`).toContain(res.statusCode);
    }
  });

  it('still has a working patient session afterwards', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/patient-portal/me', headers: { cookie } });
    expect(res.statusCode).toBe(200);
  });
});
