// Issue 21 item 2 (decision 031): a reset of the portal with a new code ends every passkey and every open portal
// session of the patient; adding a passkey in the portal needs the PIN entered in this session within 10 minutes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { testClock } from '../../test/clock';
import { createPatient } from '../../test/patient-fixtures';
import { PATIENT_PIN, signInPatient } from '../../test/portal-fixtures';
import { queryOne } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { TestAuthenticator } from '../../test/webauthn-authenticator';

const clock = testClock(new Date('2026-11-25T08:00:00Z'));
let t: TestApp;
let origin: string;
let desk: string;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  origin = t.config.webauthn.origins[0]!;
  desk = (await signInAs(t, 5)).cookie;
});
afterAll(async () => {
  await t?.close();
});

let ipCounter = 1;
const newIp = (): string => `10.44.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;
const sessionOf = (res: LightMyRequestResponse): string | null => {
  const c = res.cookies.find((x) => x.name === 'nhr_sid');
  return c && c.value ? `nhr_sid=${c.value}` : null;
};
const call = (who: { ip: string; cookie?: string | null }, options: InjectOptions) =>
  t.app.inject({ remoteAddress: who.ip, ...options, headers: { ...(who.cookie ? { cookie: who.cookie } : {}) } });

async function addPasskey(who: { ip: string; cookie: string }, device: TestAuthenticator): Promise<LightMyRequestResponse> {
  const opts = await call(who, { method: 'POST', url: '/api/auth/passkeys/registration-options' });
  if (opts.statusCode !== 200) return opts;
  return call(who, { method: 'POST', url: '/api/auth/passkeys', payload: { name: 'My phone', response: device.register(opts.json()) } });
}

async function passkeyLogin(ip: string, device: TestAuthenticator): Promise<LightMyRequestResponse> {
  const opts = await call({ ip }, { method: 'POST', url: '/api/auth/passkey/options', payload: { purpose: 'sign_in' } });
  return call({ ip }, { method: 'POST', url: '/api/auth/patient-passkey-login', payload: { response: device.assert(opts.json()) } });
}

async function activePatient() {
  const p = await createPatient(t.db);
  const ip = newIp();
  const patient = { id: p.id, ncNumber: p.idNumber, dateOfBirth: p.dateOfBirth };
  const cookie = await signInPatient(t, patient, ip);
  return { ...patient, ip, cookie };
}

const pinLogin = (p: { ip: string; ncNumber: string; dateOfBirth: string }, pin: string) =>
  call(
    { ip: p.ip },
    { method: 'POST', url: '/api/auth/patient-login', payload: { ncNumber: p.ncNumber, dateOfBirth: p.dateOfBirth, pin } },
  );

describe('a portal reset (issue 21 item 2)', () => {
  it('ends every passkey and every open session of the portal once the new code is used; nothing before that', async () => {
    const p = await activePatient();
    const device = new TestAuthenticator({ origin });
    expect((await addPasskey(p, device)).statusCode).toBe(201);
    const second = sessionOf(await pinLogin(p, PATIENT_PIN))!;
    clock.advance(1000);

    const issued = await call({ ip: '10.44.200.1', cookie: desk }, { method: 'POST', url: `/api/patients/${p.id}/portal-activation` });
    expect(issued.statusCode).toBe(201);
    // Until the code is used, the passkey, the PIN and the open sessions all keep working.
    expect((await passkeyLogin(p.ip, device)).statusCode).toBe(200);
    expect((await call({ ip: p.ip, cookie: second }, { method: 'GET', url: '/api/patient-portal/me' })).statusCode).toBe(200);

    const used = await call(p, {
      method: 'POST',
      url: '/api/auth/patient-activate',
      payload: {
        ncNumber: p.ncNumber,
        dateOfBirth: p.dateOfBirth,
        activationCode: issued.json().code,
        pin: '593017',
        currentPin: PATIENT_PIN,
      },
    });
    expect(used.statusCode, used.body).toBe(200);
    const fresh = sessionOf(used)!;

    for (const old of [p.cookie, second])
      expect((await call({ ip: p.ip, cookie: old }, { method: 'GET', url: '/api/patient-portal/me' })).statusCode).toBe(401);
    const refused = await passkeyLogin(p.ip, device);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('PASSKEY_FAILED');
    expect((await call({ ip: p.ip, cookie: fresh }, { method: 'GET', url: '/api/auth/passkeys' })).json()).toEqual([]);
    expect((await pinLogin(p, PATIENT_PIN)).statusCode).toBe(401);
    expect((await pinLogin(p, '593017')).statusCode).toBe(200);
    const event = await queryOne<{ metadata: Record<string, unknown> }>(
      t.db,
      sql`SELECT metadata FROM security_events WHERE event_type = 'PORTAL_PIN_SET' AND metadata->>'patientId' = ${String(p.id)}
          ORDER BY id DESC LIMIT 1`,
    );
    expect(event!.metadata).toMatchObject({ reset: true, passkeysRemoved: 1, sessionsEnded: 3 });
  });
});

describe('adding a passkey in the portal needs a fresh PIN (issue 21 item 2)', () => {
  it('is refused 10 minutes after the PIN was entered, and allowed again after POST /api/patient-portal/reauth', async () => {
    const p = await activePatient();
    clock.advance(10 * 60_000 + 1000);
    const stale = await call(p, { method: 'POST', url: '/api/auth/passkeys/registration-options' });
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe('REAUTH_REQUIRED');

    const wrong = await call(p, { method: 'POST', url: '/api/patient-portal/reauth', payload: { pin: '000111' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('PORTAL_PIN_INCORRECT');
    expect((await call(p, { method: 'POST', url: '/api/auth/passkeys/registration-options' })).statusCode).toBe(403);
    // The session is still open after a wrong PIN.
    expect((await call(p, { method: 'GET', url: '/api/patient-portal/me' })).statusCode).toBe(200);

    const ok = await call(p, { method: 'POST', url: '/api/patient-portal/reauth', payload: { pin: PATIENT_PIN } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await addPasskey(p, new TestAuthenticator({ origin }))).statusCode).toBe(201);
  });

  it('a session opened with a passkey must enter the PIN before adding another passkey', async () => {
    const p = await activePatient();
    const device = new TestAuthenticator({ origin });
    expect((await addPasskey(p, device)).statusCode).toBe(201);
    const viaPasskey = sessionOf(await passkeyLogin(p.ip, device))!;
    const who = { ip: p.ip, cookie: viaPasskey };
    const refused = await addPasskey(who, new TestAuthenticator({ origin }));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('REAUTH_REQUIRED');
    expect((await call(who, { method: 'GET', url: '/api/auth/passkeys' })).json()).toHaveLength(1);
  });

  it('wrong PINs at the re-check count towards the NC number lockout', async () => {
    const p = await activePatient();
    clock.advance(1000);
    for (let i = 0; i < 5; i++)
      expect((await call(p, { method: 'POST', url: '/api/patient-portal/reauth', payload: { pin: '000111' } })).statusCode).toBe(401);
    const locked = await call(p, { method: 'POST', url: '/api/patient-portal/reauth', payload: { pin: PATIENT_PIN } });
    expect(locked.statusCode).toBe(429);
    expect((await pinLogin(p, PATIENT_PIN)).statusCode).toBe(429);
  });

  it('is for patients only: signed out 401, staff 403, and a bad PIN is a 400', async () => {
    expect(
      (await call({ ip: newIp() }, { method: 'POST', url: '/api/patient-portal/reauth', payload: { pin: PATIENT_PIN } })).statusCode,
    ).toBe(401);
    const staff = await call(
      { ip: newIp(), cookie: desk },
      { method: 'POST', url: '/api/patient-portal/reauth', payload: { pin: PATIENT_PIN } },
    );
    expect(staff.statusCode).toBe(403);
    const p = await activePatient();
    for (const pin of ['12345', 'abcdef', 123456, null])
      expect((await call(p, { method: 'POST', url: '/api/patient-portal/reauth', payload: { pin } })).statusCode).toBe(400);
  });
});
