// Issue 21 items 8 and 20 (decision 035), through the real app: past the hourly volume (ALERT_GRANTS_PER_HOUR) every
// record-access confirmation, with the patient's consent or without, needs a fresh proof; a user without a second
// factor gives the password (POST /api/auth/reauth/password), a user with one the second factor. Past the hard
// ceiling (BREAK_GLASS_MAX_PER_HOUR) no break-the-glass grant is made at all.
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../test/clock';
import { createPatient } from '../../test/patient-fixtures';
import { queryOne } from '../../test/sql';
import { createStaffUser, signIn, type StaffUser } from '../../test/staff';
import { createTestApp, testConfig, type TestApp } from '../../test/test-app';

const VOLUME = 3;
const CEILING = 5;
const clock = testClock(new Date('2026-11-25T08:00:00Z'));
let t: TestApp;
let patients: number[] = [];
beforeAll(async () => {
  const base = testConfig();
  t = await createTestApp({ now: clock.now, breakGlassPerHour: CEILING, alerts: { ...base.alerts, grantsPerHour: VOLUME } });
  for (let i = 0; i < 12; i++) patients.push((await createPatient(t.db)).id);
}, 60_000);
afterAll(async () => {
  await t?.close();
  patients = [];
});

interface Person {
  user: StaffUser;
  cookie: string;
}
let ip = 1;
async function doctor(): Promise<Person> {
  const user = await createStaffUser(t.db, { roleId: 3 });
  return { user, cookie: await signIn(t.app, user.email, user.password) };
}
const call = (p: Person, options: InjectOptions) =>
  t.app.inject({ remoteAddress: `10.44.0.${ip}`, ...options, headers: { cookie: p.cookie, ...(options.headers ?? {}) } });
const grant = (p: Person, patientId: number, consent: boolean) =>
  call(p, {
    method: 'POST',
    url: `/api/patients/${patientId}/access`,
    payload: consent ? { consent: true } : { consent: false, reason: 'Unconscious on arrival' },
  });
const grantsOf = async (p: Person): Promise<number> =>
  (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM access_grants WHERE user_id = ${p.user.id}`))!.n;

describe('past the hourly volume, a user without a second factor confirms the password', () => {
  it('asks for it before the next consent grant (item 20), and the password makes the grant possible (item 8)', async () => {
    ip++;
    const p = await doctor();
    // "More than VOLUME in the hour" (decision 011): the grant after VOLUME + 1 asks.
    for (let i = 0; i <= VOLUME; i++) expect((await grant(p, patients[i]!, true)).statusCode).toBe(201);
    const refused = await grant(p, patients[4]!, true);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'REAUTH_REQUIRED', method: 'password' });
    expect(await grantsOf(p)).toBe(VOLUME + 1);

    const wrong = await call(p, { method: 'POST', url: '/api/auth/reauth/password', payload: { password: 'not my password' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
    const failure = await queryOne(
      t.db,
      sql`SELECT metadata->>'purpose' AS purpose FROM security_events WHERE event_type = 'LOGIN_FAILURE' AND user_id = ${p.user.id}`,
    );
    expect(failure).toEqual({ purpose: 'reauth' });
    expect((await grant(p, patients[4]!, true)).statusCode).toBe(403);

    const right = await call(p, { method: 'POST', url: '/api/auth/reauth/password', payload: { password: p.user.password } });
    expect(right.statusCode).toBe(200);
    expect((await grant(p, patients[4]!, true)).statusCode).toBe(201);
    // Fresh for REAUTH_FRESH_MINUTES only.
    clock.advance(11 * 60_000);
    expect((await grant(p, patients[5]!, true)).json()).toMatchObject({ code: 'REAUTH_REQUIRED', method: 'password' });
  });

  it('asks for it before break-the-glass past the volume too; below it a user without a second factor is not asked', async () => {
    ip++;
    const p = await doctor();
    expect((await grant(p, patients[0]!, false)).statusCode).toBe(201);
    expect((await grant(p, patients[1]!, true)).statusCode).toBe(201);
    expect((await grant(p, patients[2]!, true)).statusCode).toBe(201);
    expect((await grant(p, patients[3]!, false)).statusCode).toBe(201);
    const refused = await grant(p, patients[4]!, false);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'REAUTH_REQUIRED', method: 'password' });
  });

  it('refuses bad bodies with 400 and the signed out with 401, recording nothing', async () => {
    ip++;
    const p = await doctor();
    for (const payload of [{}, { password: '' }, { password: 7 }, { password: 'x'.repeat(201) }, { password: 'a', code: '123456' }]) {
      expect((await call(p, { method: 'POST', url: '/api/auth/reauth/password', payload })).statusCode).toBe(400);
    }
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/reauth/password', payload: { password: 'x' } });
    expect(out.statusCode).toBe(401);
    const events = await queryOne<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM security_events WHERE user_id = ${p.user.id} AND event_type <> 'LOGIN_SUCCESS'`,
    );
    expect(events!.n).toBe(0);
  });
});

describe('a user with a second factor', () => {
  it('is asked for the second factor past the volume even for consent grants, and may not use the password instead', async () => {
    ip++;
    const p = await doctor();
    const started = await call(p, { method: 'POST', url: '/api/auth/mfa/totp/enrol' });
    const secret = started.json().secret as string;
    const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
      timestamp: clock.now().getTime(),
    });
    expect((await call(p, { method: 'POST', url: '/api/auth/mfa/totp/confirm', payload: { code } })).statusCode).toBe(200);
    clock.advance(11 * 60_000); // the enrolment's proof is no longer fresh
    for (let i = 0; i <= VOLUME; i++) expect((await grant(p, patients[i]!, true)).statusCode).toBe(201);
    const refused = await grant(p, patients[4]!, true);
    expect(refused.json()).toMatchObject({ code: 'REAUTH_REQUIRED', method: 'second_factor' });
    const withPassword = await call(p, { method: 'POST', url: '/api/auth/reauth/password', payload: { password: p.user.password } });
    expect(withPassword.statusCode).toBe(403);
    expect(withPassword.json().code).toBe('USE_SECOND_FACTOR');
    expect((await grant(p, patients[4]!, true)).statusCode).toBe(403);
  });
});

describe('the hard hourly ceiling of break-the-glass', () => {
  it('refuses the next one with 429 BREAK_GLASS_LIMIT and Retry-After, writing no grant and a high security event', async () => {
    ip++;
    const p = await doctor();
    expect((await call(p, { method: 'POST', url: '/api/auth/reauth/password', payload: { password: p.user.password } })).statusCode).toBe(
      200,
    );
    for (let i = 0; i < CEILING; i++) expect((await grant(p, patients[i]!, false)).statusCode).toBe(201);
    clock.advance(60_000);
    const refused = await grant(p, patients[CEILING]!, false);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('BREAK_GLASS_LIMIT');
    expect(Number(refused.headers['retry-after'])).toBe(59 * 60);
    expect(await grantsOf(p)).toBe(CEILING);
    const event = await queryOne(
      t.db,
      sql`SELECT severity FROM security_events WHERE event_type = 'BREAK_GLASS_LIMIT_REACHED' AND user_id = ${p.user.id}`,
    );
    expect(event).toEqual({ severity: 'high' });
    // The patient's consent still opens a record; after the hour break-the-glass is possible again.
    expect((await grant(p, patients[CEILING]!, true)).statusCode).toBe(201);
    clock.advance(60 * 60_000);
    const again: Person = { user: p.user, cookie: await signIn(t.app, p.user.email, p.user.password) }; // the idle session ended
    expect((await grant(again, patients[CEILING + 1]!, false)).statusCode).toBe(201);
  });
});
