// Patient passkeys (issue 12 item 2, decision 026) through the real app and database, with answers from the software
// authenticator: a signed-in patient adds a passkey in the portal and later signs in with it alone (no NC number, date
// of birth or PIN); a staff user's passkey, someone else's, a replayed or expired challenge and a wrong origin are
// refused; failures lock the NC number like wrong PINs; a browser holding a staff session is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { testClock } from '../../test/clock';
import { createPatient } from '../../test/patient-fixtures';
import { PATIENT_PIN, signInPatient } from '../../test/portal-fixtures';
import { queryOne } from '../../test/sql';
import { createStaffUser, signIn } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { TestAuthenticator, type AnswerOverrides } from '../../test/webauthn-authenticator';

const clock = testClock(new Date('2026-11-22T08:00:00Z'));
let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  origin = t.config.webauthn.origins[0]!;
});
afterAll(async () => {
  await t?.close();
});

let ipCounter = 1;
const newIp = (): string => `10.33.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

const sessionOf = (res: LightMyRequestResponse): string | null => {
  const c = res.cookies.find((x) => x.name === 'nhr_sid');
  return c && c.value ? `nhr_sid=${c.value}` : null;
};

const call = (who: { ip: string; cookie?: string | null }, options: InjectOptions) =>
  t.app.inject({ remoteAddress: who.ip, ...options, headers: { ...(who.cookie ? { cookie: who.cookie } : {}) } });

interface PortalPatient {
  id: number;
  ncNumber: string;
  dateOfBirth: string;
  ip: string;
  cookie: string;
  device: TestAuthenticator;
}

/** A patient signed in to the portal (activation, then PIN) with a passkey added there. */
async function patientWithPasskey(): Promise<PortalPatient> {
  const p = await createPatient(t.db);
  const ip = newIp();
  const cookie = await signInPatient(t, { id: p.id, ncNumber: p.idNumber, dateOfBirth: p.dateOfBirth }, ip);
  const device = new TestAuthenticator({ origin });
  const opts = await call({ ip, cookie }, { method: 'POST', url: '/api/auth/passkeys/registration-options' });
  expect(opts.statusCode, opts.body).toBe(200);
  const reg = await call(
    { ip, cookie },
    { method: 'POST', url: '/api/auth/passkeys', payload: { name: 'My phone', response: device.register(opts.json()) } },
  );
  expect(reg.statusCode, reg.body).toBe(201);
  clock.advance(1000);
  return { id: p.id, ncNumber: p.idNumber, dateOfBirth: p.dateOfBirth, ip, cookie, device };
}

async function passkeyLogin(who: { ip: string; cookie?: string | null; device: TestAuthenticator }, overrides: AnswerOverrides = {}) {
  const opts = await call({ ip: who.ip }, { method: 'POST', url: '/api/auth/passkey/options', payload: { purpose: 'sign_in' } });
  expect(opts.statusCode).toBe(200);
  return call(who, {
    method: 'POST',
    url: '/api/auth/patient-passkey-login',
    payload: { response: who.device.assert(opts.json(), overrides) },
  });
}

const lastFailure = async (): Promise<{ subject: string; metadata: Record<string, unknown> }> =>
  (await queryOne<{ subject: string; metadata: Record<string, unknown> }>(
    t.db,
    sql`SELECT subject, metadata FROM security_events WHERE event_type = 'LOGIN_FAILURE' ORDER BY id DESC LIMIT 1`,
  ))!;

describe('patient passkeys', () => {
  it('a patient adds a passkey in the portal and signs in with it alone; the sign-in is recorded under the NC number', async () => {
    const p = await patientWithPasskey();
    const list = await call(p, { method: 'GET', url: '/api/auth/passkeys' });
    expect(list.json()).toEqual([expect.objectContaining({ name: 'My phone', lastUsedAt: null })]);
    const res = await passkeyLogin({ ip: p.ip, device: p.device });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().patient).toEqual({ id: p.id, firstName: expect.any(String) });
    const cookie = sessionOf(res)!;
    const me = await call({ ip: p.ip, cookie }, { method: 'GET', url: '/api/patient-portal/me' });
    expect(me.statusCode).toBe(200);
    expect(me.json().patient.idNumber).toBe(p.ncNumber);
    const success = await queryOne<{ subject: string; metadata: Record<string, unknown> }>(
      t.db,
      sql`SELECT subject, metadata FROM security_events WHERE event_type = 'LOGIN_SUCCESS' ORDER BY id DESC LIMIT 1`,
    );
    expect(success).toEqual({ subject: p.ncNumber, metadata: { kind: 'patient', method: 'passkey', patientId: p.id } });
    // A patient session is not staff: the staff routes stay closed.
    expect((await call({ ip: p.ip, cookie }, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
  });

  it("refuses a staff user's passkey on the patient sign-in", async () => {
    const staff = await createStaffUser(t.db, { roleId: 5 });
    const ip = newIp();
    const cookie = await signIn(t.app, staff.email, staff.password);
    const device = new TestAuthenticator({ origin });
    const opts = (await call({ ip, cookie }, { method: 'POST', url: '/api/auth/passkeys/registration-options' })).json();
    expect(
      (
        await call(
          { ip, cookie },
          { method: 'POST', url: '/api/auth/passkeys', payload: { name: 'Desk', response: device.register(opts) } },
        )
      ).statusCode,
    ).toBe(201);
    const res = await passkeyLogin({ ip, device });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('PASSKEY_FAILED');
    expect(sessionOf(res)).toBeNull();
    expect((await lastFailure()).metadata).toMatchObject({ kind: 'patient', method: 'passkey', reason: 'staff_credential' });
  });

  it('refuses a replayed answer, an expired challenge and a wrong origin', async () => {
    const p = await patientWithPasskey();
    const opts = (await call({ ip: p.ip }, { method: 'POST', url: '/api/auth/passkey/options', payload: { purpose: 'sign_in' } })).json();
    const answer = p.device.assert(opts);
    const login = (response: unknown) =>
      call({ ip: p.ip }, { method: 'POST', url: '/api/auth/patient-passkey-login', payload: { response } });
    expect((await login(answer)).statusCode).toBe(200);
    clock.advance(1000);
    const replay = await login(answer);
    expect(replay.statusCode).toBe(401);
    expect(await lastFailure()).toEqual({
      subject: p.ncNumber,
      metadata: { kind: 'patient', method: 'passkey', reason: 'challenge_expired_or_used', patientId: p.id },
    });
    const late = (await call({ ip: p.ip }, { method: 'POST', url: '/api/auth/passkey/options', payload: { purpose: 'sign_in' } })).json();
    clock.advance(5 * 60_000 + 1000);
    expect((await login(p.device.assert(late))).statusCode).toBe(401);
    expect((await passkeyLogin({ ip: p.ip, device: p.device }, { origin: 'https://phish.example' })).statusCode).toBe(401);
    expect((await lastFailure()).metadata).toMatchObject({ reason: 'verification_failed' });
  });

  it('5 failed passkey answers lock the NC number for 15 minutes, for the PIN too', async () => {
    const p = await patientWithPasskey();
    for (let i = 0; i < 5; i++)
      expect((await passkeyLogin({ ip: p.ip, device: p.device }, { origin: 'https://phish.example' })).statusCode).toBe(401);
    const locked = await passkeyLogin({ ip: p.ip, device: p.device });
    expect(locked.statusCode).toBe(429);
    const pin = await call(
      { ip: p.ip },
      { method: 'POST', url: '/api/auth/patient-login', payload: { ncNumber: p.ncNumber, dateOfBirth: p.dateOfBirth, pin: PATIENT_PIN } },
    );
    expect(pin.statusCode).toBe(429);
    clock.advance(15 * 60_000 + 1000);
    expect((await passkeyLogin({ ip: p.ip, device: p.device })).statusCode).toBe(200);
  });

  it('is refused from a browser that holds a staff session, and the staff session stays', async () => {
    const p = await patientWithPasskey();
    const staff = await createStaffUser(t.db, { roleId: 5 });
    const staffCookie = await signIn(t.app, staff.email, staff.password);
    const res = await passkeyLogin({ ip: p.ip, cookie: staffCookie, device: p.device });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('PORTAL_FROM_STAFF_SESSION');
    expect((await call({ ip: p.ip, cookie: staffCookie }, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(200);
  });

  it("a patient sees and removes only their own passkeys: another patient's is 404 and stays", async () => {
    const a = await patientWithPasskey();
    const b = await patientWithPasskey();
    const idB = (await call(b, { method: 'GET', url: '/api/auth/passkeys' })).json()[0].id as string;
    expect((await call(a, { method: 'GET', url: '/api/auth/passkeys' })).json().map((x: { id: string }) => x.id)).not.toContain(idB);
    const other = await call(a, { method: 'DELETE', url: `/api/auth/passkeys/${idB}` });
    expect(other.statusCode).toBe(404);
    expect((await call(b, { method: 'GET', url: '/api/auth/passkeys' })).json()).toHaveLength(1);
    const own = await call(b, { method: 'DELETE', url: `/api/auth/passkeys/${idB}` });
    expect(own.statusCode).toBe(200);
    expect((await passkeyLogin({ ip: b.ip, device: b.device })).statusCode).toBe(401);
    const removed = await queryOne<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM security_events WHERE event_type = 'PASSKEY_REMOVED' AND metadata->>'patientId' = ${String(b.id)}`,
    );
    expect(removed!.n).toBe(1);
  });
});
