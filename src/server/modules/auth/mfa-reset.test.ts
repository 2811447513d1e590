// An administrator resets a staff user's lost authenticator app (issue 12, decision 024): only with users.approve,
// never their own, audited (UPDATE USER) with a high-severity security event; the app, its recovery codes and any
// pending sign-in step are gone, every open session of the user ends, and at the next sign-in a role that requires a
// second factor asks for enrolment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { testClock } from '../../test/clock';
import { signInPatient, insertPatient } from '../../test/portal-fixtures';
import { queryOne, queryRows } from '../../test/sql';
import { createStaffUser, signIn, type StaffUser } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

const clock = testClock(new Date('2026-11-23T08:00:00Z'));
let t: TestApp;
let admin: { user: StaffUser; cookie: string };

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  const user = await createStaffUser(t.db, { roleId: 2 });
  admin = { user, cookie: await signIn(t.app, user.email, user.password) };
});
afterAll(async () => {
  await t?.close();
});

let ipCounter = 1;
const newIp = (): string => `10.44.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;
const codeFor = (secret: string): string =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });
const cookieOf = (res: LightMyRequestResponse, name: string): string | null => {
  const c = res.cookies.find((x) => x.name === name);
  return c && c.value ? `${name}=${c.value}` : null;
};
const as = (cookie: string | null, options: InjectOptions, ip = '10.44.250.1') =>
  t.app.inject({ remoteAddress: ip, ...options, headers: cookie ? { cookie } : {} });
const passwordStep = (u: StaffUser, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { email: u.email, password: u.password } });

/** A user of this role with an authenticator app set up (signed in, enrolled, confirmed). */
async function enrolled(roleId: number): Promise<{ user: StaffUser; ip: string; secret: string }> {
  const user = await createStaffUser(t.db, { roleId });
  const ip = newIp();
  const cookie = cookieOf(await passwordStep(user, ip), 'nhr_sid')!;
  const secret = (await as(cookie, { method: 'POST', url: '/api/auth/mfa/totp/enrol' }, ip)).json().secret as string;
  expect((await as(cookie, { method: 'POST', url: '/api/auth/mfa/totp/confirm', payload: { code: codeFor(secret) } }, ip)).statusCode).toBe(
    200,
  );
  clock.advance(30_000);
  return { user, ip, secret };
}

const reset = (cookie: string | null, userId: string) => as(cookie, { method: 'DELETE', url: `/api/admin/users/${userId}/totp` });
const totpRows = async (userId: string): Promise<number> =>
  (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM staff_totp WHERE user_id = ${userId}`))!.n;

describe("an administrator's reset of a lost authenticator app", () => {
  it('lists enrolled users; the reset removes the app and codes, is audited and recorded, and ends a pending sign-in step', async () => {
    const doctor = await enrolled(3);
    const list = await as(admin.cookie, { method: 'GET', url: '/api/admin/second-factors' });
    expect(list.json()).toEqual(expect.arrayContaining([expect.objectContaining({ userId: doctor.user.id, email: doctor.user.email })]));
    const pending = await passwordStep(doctor.user, doctor.ip);
    expect(pending.json()).toMatchObject({ secondFactor: 'verify' });

    const res = await reset(admin.cookie, doctor.user.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(await totpRows(doctor.user.id)).toBe(0);
    const codes = await queryOne<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM staff_recovery_codes WHERE user_id = ${doctor.user.id}`,
    );
    expect(codes!.n).toBe(0);
    const audit = await queryRows<{ action: string; user_id: string; old_values: unknown; new_values: unknown }>(
      t.db,
      sql`SELECT action, user_id, old_values, new_values FROM audit_logs WHERE resource_type = 'USER' AND resource_id = ${doctor.user.id}`,
    );
    expect(audit).toEqual([
      {
        action: 'UPDATE',
        user_id: admin.user.id,
        old_values: { totpEnabledAt: expect.any(String) },
        new_values: { totp: 'reset by administrator' },
      },
    ]);
    const event = await queryOne<{ user_id: string; severity: string; metadata: Record<string, unknown> }>(
      t.db,
      sql`SELECT user_id, severity, metadata FROM security_events WHERE event_type = 'MFA_RESET_BY_ADMIN' ORDER BY id DESC LIMIT 1`,
    );
    expect(event).toEqual({
      user_id: doctor.user.id,
      severity: 'high',
      metadata: { resetBy: admin.user.id, resetByEmail: admin.user.email },
    });

    // The step opened before the reset no longer finishes, with the old app's code or any other.
    const late = await as(
      cookieOf(pending, 'nhr_mfa'),
      { method: 'POST', url: '/api/auth/login/second-factor', payload: { code: codeFor(doctor.secret) } },
      doctor.ip,
    );
    expect(late.statusCode).toBe(401);
    expect(late.json().code).toBe('SIGN_IN_EXPIRED');
    // Doctor: kept once enrolled, not required: the password signs in; the profile offers a new set-up.
    const next = await passwordStep(doctor.user, doctor.ip);
    expect(next.statusCode).toBe(200);
    expect(cookieOf(next, 'nhr_sid')).not.toBeNull();
    const status = await as(cookieOf(next, 'nhr_sid'), { method: 'GET', url: '/api/auth/mfa' }, doctor.ip);
    expect(status.json()).toMatchObject({ totpEnabled: false });
    expect((await as(admin.cookie, { method: 'GET', url: '/api/admin/second-factors' })).json()).not.toContainEqual(
      expect.objectContaining({ userId: doctor.user.id }),
    );
  });

  it("ends every open session of the user (whoever holds the lost phone is signed out), not the administrator's", async () => {
    const nurse = await enrolled(4);
    const signedIn = async (): Promise<string> => {
      clock.advance(30_000);
      const step = await passwordStep(nurse.user, nurse.ip);
      const done = await as(
        cookieOf(step, 'nhr_mfa'),
        { method: 'POST', url: '/api/auth/login/second-factor', payload: { code: codeFor(nurse.secret) } },
        nurse.ip,
      );
      expect(done.statusCode, done.body).toBe(200);
      return cookieOf(done, 'nhr_sid')!;
    };
    const onWard = await signedIn();
    const onPhone = await signedIn();
    const search = (cookie: string) =>
      as(cookie, { method: 'POST', url: '/api/patients/search', payload: { method: 'id-number', idNumber: '12345678901' } }, nurse.ip);
    expect((await search(onWard)).statusCode).toBe(200); // its actor is now in this worker's cache
    expect((await as(onPhone, { method: 'GET', url: '/api/auth/user' }, nurse.ip)).statusCode).toBe(200);

    expect((await reset(admin.cookie, nurse.user.id)).statusCode).toBe(200);
    expect((await search(onWard)).statusCode).toBe(401);
    expect((await as(onPhone, { method: 'GET', url: '/api/auth/user' }, nurse.ip)).statusCode).toBe(401);
    const open = await queryOne<{ sessions: number; signIns: number }>(
      t.db,
      sql`SELECT (SELECT count(*)::int FROM sessions WHERE sess->>'userId' = ${nurse.user.id}) AS sessions,
                 (SELECT count(*)::int FROM user_sessions WHERE user_id = ${nurse.user.id} AND is_active) AS "signIns"`,
    );
    expect(open).toEqual({ sessions: 0, signIns: 0 });
    expect((await as(admin.cookie, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(200);
  });

  it('a user whose role requires a second factor must enrol again at the next sign-in', async () => {
    const medic = await enrolled(405);
    expect((await as(admin.cookie, { method: 'PUT', url: '/api/admin/mfa-policy/405', payload: { policy: 'required' } })).statusCode).toBe(
      200,
    );
    expect((await reset(admin.cookie, medic.user.id)).statusCode).toBe(200);
    const next = await passwordStep(medic.user, medic.ip);
    expect(next.json()).toMatchObject({ secondFactor: 'enrol' });
    expect(cookieOf(next, 'nhr_sid')).toBeNull();
  });

  it('refuses the wrong people and changes nothing: no users.approve, own account, patient, signed out', async () => {
    const nurse = await enrolled(4);
    const other = await createStaffUser(t.db, { roleId: 4 });
    const otherCookie = await signIn(t.app, other.email, other.password);
    const refused = await reset(otherCookie, nurse.user.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('PERMISSION_REQUIRED');
    expect((await as(otherCookie, { method: 'GET', url: '/api/admin/second-factors' })).statusCode).toBe(403);

    const adminWithApp = await enrolled(1);
    const adminCookie = cookieOf(
      await as(
        cookieOf(await passwordStep(adminWithApp.user, adminWithApp.ip), 'nhr_mfa'),
        {
          method: 'POST',
          url: '/api/auth/login/second-factor',
          payload: { code: codeFor(adminWithApp.secret) },
        },
        adminWithApp.ip,
      ),
      'nhr_sid',
    );
    const own = await reset(adminCookie, adminWithApp.user.id);
    expect(own.statusCode).toBe(403);
    expect(own.json().code).toBe('OWN_SECOND_FACTOR_RESET');
    expect(await totpRows(adminWithApp.user.id)).toBe(1);

    const patient = await insertPatient(t.db);
    const patientCookie = await signInPatient(t, patient, newIp());
    expect((await reset(patientCookie, nurse.user.id)).statusCode).toBe(401);
    expect((await reset(null, nurse.user.id)).statusCode).toBe(401);
    expect(await totpRows(nurse.user.id)).toBe(1);
    const events = await queryOne<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM security_events WHERE event_type = 'MFA_RESET_BY_ADMIN' AND user_id = ${nurse.user.id}`,
    );
    expect(events!.n).toBe(0);
  });

  it('an unknown user is 404 and a user without an app is 409, with no audit row', async () => {
    const before = (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs`))!.n;
    const unknown = await reset(admin.cookie, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('USER_NOT_FOUND');
    const plain = await createStaffUser(t.db, { roleId: 5 });
    const none = await reset(admin.cookie, plain.id);
    expect(none.statusCode).toBe(409);
    expect(none.json().code).toBe('USER_TOTP_NOT_ENROLLED');
    expect((await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs`))!.n).toBe(before);
  });
});
