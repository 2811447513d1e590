// Issue 21 item 1 (decision 031): a desk code for a portal that is already active leaves the PIN and passkeys alone
// until it is used, and then needs the patient's date of birth and current PIN, unless a second staff member
// confirmed the reset (two-person rule; the patient is told at the next sign-in). Codes are limited per staff member
// with a volume alert; every code and every activation is in the patient's access history with the issuer's name; a
// desk that activates its own code and reads the record raises a critical alert.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { VolumeAlert } from '../../../contracts/privacy-review';
import { loadConfig } from '../../config';
import { testClock } from '../../test/clock';
import { createPatient } from '../../test/patient-fixtures';
import { PATIENT_PIN, signInPatient } from '../../test/portal-fixtures';
import { queryOne } from '../../test/sql';
import { createStaffUser, signIn, signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { TestAuthenticator } from '../../test/webauthn-authenticator';

const clock = testClock(new Date('2026-11-25T10:00:00Z'));
let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await createTestApp({
    now: clock.now,
    rateLimits: { ...loadConfig({}).rateLimits, portalCode: { max: 4, windowMs: 3_600_000 } },
    alerts: { ...loadConfig({}).alerts, portalCodesPerHour: 2, deskActivationMinutes: 30 },
  });
  origin = t.config.webauthn.origins[0]!;
});
afterAll(async () => {
  await t?.close();
});

let ipCounter = 1;
const newIp = (): string => `10.66.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;
const sessionOf = (res: LightMyRequestResponse): string => `nhr_sid=${res.cookies.find((c) => c.name === 'nhr_sid')!.value}`;
interface Who {
  ip: string;
  cookie?: string | null;
  ua?: string;
}
const call = (who: Who, options: InjectOptions) =>
  t.app.inject({
    remoteAddress: who.ip,
    ...options,
    headers: { 'user-agent': who.ua ?? `browser-${who.ip}`, ...(who.cookie ? { cookie: who.cookie } : {}) },
  });

let deskCounter = 0;
/** A receptionist (patients.create) with a name of their own, signed in from a desk of their own. */
async function desk(): Promise<Who & { userId: string; name: string }> {
  const lastName = `Desk${++deskCounter}`;
  const user = await createStaffUser(t.db, { roleId: 5, firstName: 'Selma', lastName });
  return { ip: newIp(), cookie: await signIn(t.app, user.email, user.password), userId: user.id, name: `Selma ${lastName}` };
}

async function activePatient() {
  const p = await createPatient(t.db);
  const ip = newIp();
  const patient = { id: p.id, ncNumber: p.idNumber, dateOfBirth: p.dateOfBirth };
  const cookie = await signInPatient(t, patient, ip);
  return { ...patient, ip, cookie };
}

const issue = (by: Who, patientId: number) => call(by, { method: 'POST', url: `/api/patients/${patientId}/portal-activation` });
const activate = (who: Who, p: { ncNumber: string; dateOfBirth: string }, code: string, extra: Record<string, unknown> = {}) =>
  call(who, {
    method: 'POST',
    url: '/api/auth/patient-activate',
    payload: { ncNumber: p.ncNumber, dateOfBirth: p.dateOfBirth, activationCode: code, pin: '593017', ...extra },
  });
const pinLogin = (p: { ncNumber: string; dateOfBirth: string }, pin: string) =>
  call(
    { ip: newIp() },
    { method: 'POST', url: '/api/auth/patient-login', payload: { ncNumber: p.ncNumber, dateOfBirth: p.dateOfBirth, pin } },
  );

async function alertsOf(type: string): Promise<VolumeAlert[]> {
  const { cookie } = await signInAs(t, 6);
  const res = await call({ ip: newIp(), cookie }, { method: 'GET', url: '/api/privacy-reviews/alerts?pageSize=100' });
  expect(res.statusCode).toBe(200);
  return (res.json().items as VolumeAlert[]).filter((a) => a.type === type);
}

describe('a desk code for a portal that is already active (issue 21 item 1)', () => {
  it('leaves the PIN and passkeys alone until used, then needs the date of birth and the current PIN', async () => {
    const p = await activePatient();
    const device = new TestAuthenticator({ origin });
    const opts = await call(p, { method: 'POST', url: '/api/auth/passkeys/registration-options' });
    expect(
      (await call(p, { method: 'POST', url: '/api/auth/passkeys', payload: { name: 'Phone', response: device.register(opts.json()) } }))
        .statusCode,
    ).toBe(201);
    clock.advance(1000);
    const a = await desk();
    const issued = await issue(a, p.id);
    expect(issued.statusCode).toBe(201);
    expect(issued.json()).toMatchObject({ needsCurrentPin: true });
    const code = issued.json().code as string;
    expect((await pinLogin(p, PATIENT_PIN)).statusCode).toBe(200);

    // The code alone (what a desk holds) opens nothing, and changes nothing.
    const alone = await activate({ ip: newIp() }, p, code);
    expect(alone.statusCode).toBe(401);
    expect(alone.json().code).toBe('PORTAL_CURRENT_PIN_REQUIRED');
    const guessed = await activate({ ip: newIp() }, p, code, { currentPin: '507318' });
    expect(guessed.json().code).toBe('PORTAL_CURRENT_PIN_REQUIRED');
    const wrongDate = await activate({ ip: newIp() }, { ...p, dateOfBirth: '1950-01-01' }, code, { currentPin: PATIENT_PIN });
    expect(wrongDate.json().code).toBe('PATIENT_ACTIVATION_FAILED');
    clock.advance(1000);
    expect((await pinLogin(p, PATIENT_PIN)).statusCode).toBe(200);
    expect((await call(p, { method: 'GET', url: '/api/auth/passkeys' })).json()).toHaveLength(1);

    const used = await activate({ ip: newIp() }, p, code, { currentPin: PATIENT_PIN });
    expect(used.statusCode, used.body).toBe(200);
    expect((await pinLogin(p, '593017')).statusCode).toBe(200);
    // The patient who knew their PIN is not told about a reset they did themselves.
    const notices = await call({ ip: p.ip, cookie: sessionOf(used) }, { method: 'GET', url: '/api/patient-portal/notices' });
    expect(notices.json()).toEqual({ reset: null });
  });

  it('without the current PIN, a second staff member must confirm the reset; the patient is told at the next sign-in', async () => {
    const p = await activePatient();
    const a = await desk();
    const b = await desk();
    const code = (await issue(a, p.id)).json().code as string;
    const statusFor = (who: Who) => call(who, { method: 'GET', url: `/api/patients/${p.id}/portal-status` });
    expect((await statusFor(a)).json()).toMatchObject({
      active: true,
      canConfirmReset: false,
      liveCode: { needsCurrentPin: true, issuedBy: { id: a.userId }, resetConfirmedBy: null },
    });
    expect(JSON.stringify((await statusFor(a)).json())).not.toContain(code.slice(0, 4));
    expect((await statusFor(b)).json()).toMatchObject({ canConfirmReset: true });

    const confirm = (who: Who) => call(who, { method: 'POST', url: `/api/patients/${p.id}/portal-reset/confirm` });
    const own = await confirm(a);
    expect(own.statusCode).toBe(403);
    expect(own.json().code).toBe('PORTAL_RESET_OWN_CODE');
    const doctor = await signInAs(t, 3);
    expect((await confirm({ ip: newIp(), cookie: doctor.cookie })).statusCode).toBe(403);
    expect((await activate({ ip: newIp() }, p, code)).json().code).toBe('PORTAL_CURRENT_PIN_REQUIRED');

    const confirmed = await confirm(b);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ canConfirmReset: false, liveCode: { resetConfirmedBy: { id: b.userId, name: b.name } } });
    expect((await confirm(b)).json().code).toBe('PORTAL_RESET_NOT_PENDING');

    clock.advance(1000);
    const used = await activate({ ip: newIp() }, p, code);
    expect(used.statusCode, used.body).toBe(200);
    expect((await pinLogin(p, PATIENT_PIN)).statusCode).toBe(401);
    const cookie = sessionOf(await pinLogin(p, '593017'));
    const who = { ip: newIp(), cookie };
    const notice = (await call(who, { method: 'GET', url: '/api/patient-portal/notices' })).json();
    expect(notice).toEqual({ reset: { at: expect.any(String), issuedBy: a.name, confirmedBy: b.name } });
    const history = (await call(who, { method: 'GET', url: '/api/patient-portal/access-log?pageSize=100' })).json().items as {
      kind: string;
      name: string;
    }[];
    expect(history.slice(0, 3).map((i) => [i.kind, i.name])).toEqual([
      ['PORTAL_ACTIVATED', a.name],
      ['PORTAL_RESET_CONFIRMED', b.name],
      ['ACTIVATION_CODE', a.name],
    ]);
    expect((await call(who, { method: 'POST', url: '/api/patient-portal/notices/dismiss' })).statusCode).toBe(200);
    expect((await call(who, { method: 'GET', url: '/api/patient-portal/notices' })).json()).toEqual({ reset: null });
  });

  it('the status and the confirmation are for patients.create only, and an unknown patient is a 404', async () => {
    const p = await activePatient();
    const a = await desk();
    await issue(a, p.id);
    for (const roleId of [3, 6]) {
      const { cookie } = await signInAs(t, roleId);
      expect((await call({ ip: newIp(), cookie }, { method: 'GET', url: `/api/patients/${p.id}/portal-status` })).statusCode).toBe(403);
    }
    expect((await call({ ip: p.ip, cookie: p.cookie }, { method: 'GET', url: `/api/patients/${p.id}/portal-status` })).statusCode).toBe(
      401,
    );
    const b = await desk();
    expect((await call(b, { method: 'POST', url: '/api/patients/99999999/portal-reset/confirm' })).statusCode).toBe(404);
    expect((await call(b, { method: 'GET', url: '/api/patients/99999999/portal-status' })).statusCode).toBe(404);
  });
});

describe('desk codes: limit, volume alert and the desk activating its own code (issue 21 item 1)', () => {
  it('limits the codes one staff member issues per hour, and alerts the privacy review on volume', async () => {
    const a = await desk();
    const patients = await Promise.all(Array.from({ length: 5 }, () => createPatient(t.db)));
    for (const p of patients.slice(0, 4)) expect((await issue(a, p.id)).statusCode).toBe(201);
    const refused = await issue(a, patients[4]!.id);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    const other = await desk();
    expect((await issue(other, patients[4]!.id)).statusCode).toBe(201);
    const mine = (await alertsOf('PORTAL_CODE_VOLUME_ALERT')).filter((x) => x.user?.id === a.userId);
    expect(mine).toEqual([expect.objectContaining({ count: 3, threshold: 2, minutes: 60, severity: 'HIGH' })]);
  });

  it('an activation soon after the code, from the issuing desk, followed by a record read raises a critical alert', async () => {
    const p = await createPatient(t.db);
    const patient = { ncNumber: p.idNumber, dateOfBirth: p.dateOfBirth };
    const a = await desk();
    const code = (await issue(a, p.id)).json().code as string;
    clock.advance(5 * 60_000);
    // From the desk's own machine (same address and browser), without its staff session.
    const used = await activate({ ip: a.ip, ua: `browser-${a.ip}` }, patient, code);
    expect(used.statusCode, used.body).toBe(200);
    const session = { ip: a.ip, ua: `browser-${a.ip}`, cookie: sessionOf(used) };
    expect((await alertsOf('PORTAL_DESK_ACTIVATION_ALERT')).filter((x) => x.user?.id === a.userId)).toEqual([]);
    expect((await call(session, { method: 'GET', url: '/api/patient-portal/me' })).statusCode).toBe(200);
    expect((await call(session, { method: 'GET', url: '/api/patient-portal/me' })).statusCode).toBe(200);
    const raised = (await alertsOf('PORTAL_DESK_ACTIVATION_ALERT')).filter((x) => x.user?.id === a.userId);
    expect(raised).toEqual([expect.objectContaining({ severity: 'CRITICAL', minutes: 30, user: { id: a.userId, name: a.name } })]);
    const event = await queryOne<{ metadata: Record<string, unknown> }>(
      t.db,
      sql`SELECT metadata FROM security_events WHERE event_type = 'PORTAL_DESK_ACTIVATION_ALERT' ORDER BY id DESC LIMIT 1`,
    );
    expect(event!.metadata).toMatchObject({ patientId: p.id });
  });

  it('raises nothing when the patient activates from elsewhere, or long after the code', async () => {
    const a = await desk();
    for (const [delay, who] of [
      [60_000, { ip: newIp() }],
      [31 * 60_000, { ip: a.ip, ua: `browser-${a.ip}` }],
    ] as const) {
      const p = await createPatient(t.db);
      const code = (await issue(a, p.id)).json().code as string;
      clock.advance(delay);
      const used = await activate(who, { ncNumber: p.idNumber, dateOfBirth: p.dateOfBirth }, code);
      expect(used.statusCode, used.body).toBe(200);
      expect(
        (await call({ ip: who.ip, ua: who.ua, cookie: sessionOf(used) }, { method: 'GET', url: '/api/patient-portal/me' })).statusCode,
      ).toBe(200);
    }
    expect((await alertsOf('PORTAL_DESK_ACTIVATION_ALERT')).filter((x) => x.user?.id === a.userId)).toEqual([]);
  });
});
