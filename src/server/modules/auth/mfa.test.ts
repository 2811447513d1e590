// Staff second factor (issue 12 items 2-4, decision 024) through the real app and database: TOTP enrolment, the
// two-step sign-in, replay, lockout, recovery codes, the per-role policy and re-authentication before break-the-glass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { testClock } from '../../test/clock';
import { createPatient } from '../../test/patient-fixtures';
import { queryOne, queryRows } from '../../test/sql';
import { createStaffUser, signIn, type StaffUser } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

const clock = testClock(new Date('2026-11-20T08:00:00Z'));
let t: TestApp;
let admin: string;
let patientId: number;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  const sysadmin = await createStaffUser(t.db, { roleId: 1 });
  admin = await signIn(t.app, sysadmin.email, sysadmin.password);
  patientId = (await createPatient(t.db)).id;
});
afterAll(async () => {
  await t?.close();
});

/** The code an authenticator app shows for this secret at the test clock's time. */
const codeFor = (secret: string, at: Date = clock.now()): string =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });
const nextStep = (): void => clock.advance(30_000);

let ipCounter = 1;
/** Each user's requests from their own address, so the per-IP sign-in limit never interferes. */
const newIp = (): string => `10.12.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

function cookieOf(res: LightMyRequestResponse, name: string): string | null {
  const c = res.cookies.find((x) => x.name === name);
  return c && c.value ? `${name}=${c.value}` : null;
}

interface Person {
  user: StaffUser;
  ip: string;
  cookie: string;
  secret?: string;
  recoveryCodes?: string[];
}

const call = (p: Pick<Person, 'ip'> & { cookie?: string | null }, options: InjectOptions) =>
  t.app.inject({ remoteAddress: p.ip, ...options, headers: { ...(p.cookie ? { cookie: p.cookie } : {}), ...(options.headers ?? {}) } });

const passwordStep = (p: Pick<Person, 'ip' | 'user'>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: p.ip,
    payload: { email: p.user.email, password: p.user.password },
  });

/** A new user of this role, signed in with the password only (before any enrolment). */
async function person(roleId: number): Promise<Person> {
  const user = await createStaffUser(t.db, { roleId });
  const ip = newIp();
  const res = await passwordStep({ user, ip });
  expect(res.statusCode).toBe(200);
  return { user, ip, cookie: cookieOf(res, 'nhr_sid')! };
}

/** Enrols the signed-in person: the secret from the enrol answer, the first code, the recovery codes. */
async function enrol(p: Person): Promise<Person> {
  const started = await call(p, { method: 'POST', url: '/api/auth/mfa/totp/enrol' });
  expect(started.statusCode).toBe(200);
  const secret = started.json().secret as string;
  const confirmed = await call(p, { method: 'POST', url: '/api/auth/mfa/totp/confirm', payload: { code: codeFor(secret) } });
  expect(confirmed.statusCode).toBe(200);
  nextStep();
  return { ...p, secret, recoveryCodes: confirmed.json().recoveryCodes };
}

/** Password then code: the new session cookie (throws unless both steps answer 200). */
async function twoStepSignIn(p: Person, code: string): Promise<string> {
  const first = await passwordStep(p);
  expect(first.json()).toMatchObject({ secondFactor: 'verify' });
  const challenge = cookieOf(first, 'nhr_mfa')!;
  const second = await call({ ip: p.ip, cookie: challenge }, { method: 'POST', url: '/api/auth/login/second-factor', payload: { code } });
  expect(second.statusCode, second.body).toBe(200);
  return cookieOf(second, 'nhr_sid')!;
}

const count = async (query: ReturnType<typeof sql>): Promise<number> => (await queryOne<{ n: number }>(t.db, query))!.n;
const eventsOf = async (userId: string): Promise<string[]> =>
  (await queryRows<{ event_type: string }>(t.db, sql`SELECT event_type FROM security_events WHERE user_id = ${userId} ORDER BY id`)).map(
    (r) => r.event_type,
  );

describe('TOTP enrolment', () => {
  it('shows the secret once as text and QR code, enables it with the first code, and returns 10 recovery codes once', async () => {
    const p = await person(3);
    const started = await call(p, { method: 'POST', url: '/api/auth/mfa/totp/enrol' });
    expect(started.statusCode).toBe(200);
    const { secret, otpauthUri, qrSvg } = started.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri).toContain(`secret=${secret}`);
    expect(qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect((await call(p, { method: 'GET', url: '/api/auth/mfa' })).json()).toMatchObject({ totpEnabled: false });

    const wrong = await call(p, {
      method: 'POST',
      url: '/api/auth/mfa/totp/confirm',
      payload: { code: codeFor(secret, new Date(clock.now().getTime() - 300_000)) },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('INVALID_SECOND_FACTOR');

    const confirmed = await call(p, { method: 'POST', url: '/api/auth/mfa/totp/confirm', payload: { code: codeFor(secret) } });
    expect(confirmed.statusCode).toBe(200);
    const codes = confirmed.json().recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);

    const status = await call(p, { method: 'GET', url: '/api/auth/mfa' });
    expect(status.json()).toMatchObject({ totpEnabled: true, recoveryCodesLeft: 10, policy: 'once_enrolled' });
    expect(status.body).not.toContain(secret);
    // Stored hashed: no recovery code appears in the table.
    const stored = await queryRows<{ code_hash: string }>(
      t.db,
      sql`SELECT code_hash FROM staff_recovery_codes WHERE user_id = ${p.user.id}`,
    );
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(codes.map((c) => c.replace('-', ''))).not.toContain(row.code_hash);
    // Never shown again: a second enrolment is refused while one is enabled.
    const again = await call(p, { method: 'POST', url: '/api/auth/mfa/totp/enrol' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('SECOND_FACTOR_ALREADY_ENROLLED');
    expect(again.body).not.toContain(secret);
    expect(await eventsOf(p.user.id)).toEqual(expect.arrayContaining(['MFA_ENROL_STARTED', 'MFA_ENABLED', 'LOGIN_FAILURE']));
    nextStep();
  });
});

describe('two-step sign-in', () => {
  it('password alone opens no session for an enrolled user; the code then does', async () => {
    const p = await enrol(await person(3));
    const sessionsBefore = await count(sql`SELECT count(*)::int AS n FROM sessions`);
    const userSessionsBefore = await count(sql`SELECT count(*)::int AS n FROM user_sessions WHERE user_id = ${p.user.id}`);

    const first = await passwordStep(p);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: expect.any(String), secondFactor: 'verify', methods: ['totp'] });
    expect(cookieOf(first, 'nhr_sid')).toBeNull();
    expect(await count(sql`SELECT count(*)::int AS n FROM sessions`)).toBe(sessionsBefore);
    expect(await count(sql`SELECT count(*)::int AS n FROM user_sessions WHERE user_id = ${p.user.id}`)).toBe(userSessionsBefore);
    const challenge = cookieOf(first, 'nhr_mfa')!;
    expect(challenge).toBeTruthy();
    // The challenge cookie is not a session.
    expect((await call({ ip: p.ip, cookie: challenge }, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);

    const second = await call(
      { ip: p.ip, cookie: challenge },
      { method: 'POST', url: '/api/auth/login/second-factor', payload: { code: codeFor(p.secret!) } },
    );
    expect(second.statusCode).toBe(200);
    expect(second.json().user).toMatchObject({ id: p.user.id });
    const session = cookieOf(second, 'nhr_sid')!;
    expect((await call({ ip: p.ip, cookie: session }, { method: 'GET', url: '/api/auth/user' })).json()).toMatchObject({ id: p.user.id });
    // The challenge is single-use.
    const reuse = await call(
      { ip: p.ip, cookie: challenge },
      { method: 'POST', url: '/api/auth/login/second-factor', payload: { code: codeFor(p.secret!) } },
    );
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe('SIGN_IN_EXPIRED');
    expect(await eventsOf(p.user.id)).toEqual(expect.arrayContaining(['MFA_CHALLENGE', 'LOGIN_SUCCESS']));
    nextStep();
  });

  it('refuses a replay of the same code in its 30-second step', async () => {
    const p = await enrol(await person(4));
    const code = codeFor(p.secret!);
    await twoStepSignIn(p, code);
    const first = await passwordStep(p);
    const replay = await call(
      { ip: p.ip, cookie: cookieOf(first, 'nhr_mfa') },
      { method: 'POST', url: '/api/auth/login/second-factor', payload: { code } },
    );
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('INVALID_SECOND_FACTOR');
    nextStep();
  });

  it('a challenge expires after 5 minutes', async () => {
    const p = await enrol(await person(3));
    const first = await passwordStep(p);
    clock.advance(5 * 60_000 + 1000);
    const late = await call(
      { ip: p.ip, cookie: cookieOf(first, 'nhr_mfa') },
      { method: 'POST', url: '/api/auth/login/second-factor', payload: { code: codeFor(p.secret!) } },
    );
    expect(late.statusCode).toBe(401);
    expect(late.json().code).toBe('SIGN_IN_EXPIRED');
  });

  it('5 wrong codes lock the account like 5 wrong passwords: the right code and the password are then refused', async () => {
    const p = await enrol(await person(3));
    const first = await passwordStep(p);
    const challenge = cookieOf(first, 'nhr_mfa');
    const wrong = codeFor(p.secret!, new Date(clock.now().getTime() + 10 * 60_000));
    for (let i = 0; i < 5; i++) {
      const res = await call(
        { ip: p.ip, cookie: challenge },
        { method: 'POST', url: '/api/auth/login/second-factor', payload: { code: wrong } },
      );
      expect(res.statusCode).toBe(401);
    }
    const right = await call(
      { ip: p.ip, cookie: challenge },
      { method: 'POST', url: '/api/auth/login/second-factor', payload: { code: codeFor(p.secret!) } },
    );
    expect(right.statusCode).toBe(429);
    expect(right.json().code).toBe('LOCKED_OUT');
    expect(cookieOf(right, 'nhr_sid')).toBeNull();
    const password = await passwordStep(p);
    expect(password.statusCode).toBe(429);
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM security_events WHERE user_id = ${p.user.id} AND event_type = 'LOGIN_FAILURE' AND metadata->>'factor' = 'second'`,
      ),
    ).toBe(5);
    clock.advance(15 * 60_000 + 1000);
  });

  it('a recovery code signs in once', async () => {
    const p = await enrol(await person(3));
    const code = p.recoveryCodes![3]!;
    await twoStepSignIn(p, code.toUpperCase().replace('-', ' '));
    const first = await passwordStep(p);
    const again = await call(
      { ip: p.ip, cookie: cookieOf(first, 'nhr_mfa') },
      { method: 'POST', url: '/api/auth/login/second-factor', payload: { code } },
    );
    expect(again.statusCode).toBe(401);
    const session = await twoStepSignIn(p, codeFor(p.secret!));
    expect((await call({ ip: p.ip, cookie: session }, { method: 'GET', url: '/api/auth/mfa' })).json()).toMatchObject({
      recoveryCodesLeft: 9,
    });
    expect(await eventsOf(p.user.id)).toContain('MFA_RECOVERY_CODE_USED');
    nextStep();
  });

  it('a user without a second factor signs in with the password as before', async () => {
    const p = await person(5);
    expect(p.cookie).toMatch(/^nhr_sid=/);
  });
});

describe('switching the authenticator off', () => {
  it('a receptionist (optional) may, with a code; then the password alone signs in again', async () => {
    const p = await enrol(await person(5));
    const wrong = await call(p, { method: 'POST', url: '/api/auth/mfa/totp/disable', payload: { code: '000000' } });
    expect(wrong.statusCode).toBe(401);
    const ok = await call(p, { method: 'POST', url: '/api/auth/mfa/totp/disable', payload: { code: codeFor(p.secret!) } });
    expect(ok.statusCode).toBe(200);
    expect(await count(sql`SELECT count(*)::int AS n FROM staff_recovery_codes WHERE user_id = ${p.user.id}`)).toBe(0);
    const res = await passwordStep(p);
    expect(cookieOf(res, 'nhr_sid')).toBeTruthy();
    expect(await eventsOf(p.user.id)).toContain('MFA_DISABLED');
    nextStep();
  });

  it('a doctor may not (the role keeps it once enrolled)', async () => {
    const p = await enrol(await person(3));
    const res = await call(p, { method: 'POST', url: '/api/auth/mfa/totp/disable', payload: { code: codeFor(p.secret!) } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('SECOND_FACTOR_REQUIRED_BY_ROLE');
    expect((await call(p, { method: 'GET', url: '/api/auth/mfa' })).json()).toMatchObject({ totpEnabled: true });
  });
});

describe('per-role policy', () => {
  it('lists every role with its default; only users.approve may read or change it', async () => {
    const list = await call({ ip: '127.0.0.1', cookie: admin }, { method: 'GET', url: '/api/admin/mfa-policy' });
    expect(list.statusCode).toBe(200);
    const policies = Object.fromEntries((list.json() as { roleId: number; policy: string }[]).map((r) => [r.roleId, r.policy]));
    expect(policies).toMatchObject({
      1: 'once_enrolled',
      2: 'once_enrolled',
      3: 'once_enrolled',
      5: 'optional',
      6: 'once_enrolled',
      403: 'once_enrolled',
    });
    const doctor = await person(3);
    expect((await call(doctor, { method: 'GET', url: '/api/admin/mfa-policy' })).statusCode).toBe(403);
    const put = await call(doctor, { method: 'PUT', url: '/api/admin/mfa-policy/3', payload: { policy: 'optional' } });
    expect(put.statusCode).toBe(403);
    expect(
      (await call({ ip: '127.0.0.1' }, { method: 'PUT', url: '/api/admin/mfa-policy/3', payload: { policy: 'optional' } })).statusCode,
    ).toBe(401);
    const unknown = await call(
      { ip: '127.0.0.1', cookie: admin },
      { method: 'PUT', url: '/api/admin/mfa-policy/999', payload: { policy: 'required' } },
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('ROLE_NOT_FOUND');
    const bad = await call(
      { ip: '127.0.0.1', cookie: admin },
      { method: 'PUT', url: '/api/admin/mfa-policy/3', payload: { policy: 'always' } },
    );
    expect(bad.statusCode).toBe(400);
    expect((await call({ ip: '127.0.0.1', cookie: admin }, { method: 'GET', url: '/api/admin/mfa-policy' })).json()).toEqual(list.json());
  });

  it("a role set to 'required' sends an unenrolled user to enrolment before any session; enrolment then signs in", async () => {
    const user = await createStaffUser(t.db, { roleId: 404 });
    const ip = newIp();
    const set = await call(
      { ip: '127.0.0.1', cookie: admin },
      { method: 'PUT', url: '/api/admin/mfa-policy/404', payload: { policy: 'required' } },
    );
    expect(set.statusCode).toBe(200);
    try {
      const first = await passwordStep({ user, ip });
      expect(first.json()).toEqual({ message: expect.any(String), secondFactor: 'enrol' });
      expect(cookieOf(first, 'nhr_sid')).toBeNull();
      const challenge = cookieOf(first, 'nhr_mfa');
      expect((await call({ ip, cookie: challenge }, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
      // The enrolment challenge is no second factor.
      const skip = await call(
        { ip, cookie: challenge },
        { method: 'POST', url: '/api/auth/login/second-factor', payload: { code: '123456' } },
      );
      expect(skip.json().code).toBe('SIGN_IN_EXPIRED');

      const started = await call({ ip, cookie: challenge }, { method: 'POST', url: '/api/auth/mfa/totp/enrol' });
      expect(started.statusCode).toBe(200);
      const { secret } = started.json();
      const confirmed = await call(
        { ip, cookie: challenge },
        { method: 'POST', url: '/api/auth/mfa/totp/confirm', payload: { code: codeFor(secret) } },
      );
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json().recoveryCodes).toHaveLength(10);
      expect(confirmed.json().user).toMatchObject({ id: user.id });
      const session = cookieOf(confirmed, 'nhr_sid')!;
      expect((await call({ ip, cookie: session }, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(200);
      expect(await eventsOf(user.id)).toEqual(
        expect.arrayContaining(['MFA_ENROL_REQUIRED', 'MFA_ENROL_STARTED', 'MFA_ENABLED', 'LOGIN_SUCCESS']),
      );
      const changed = await queryOne(
        t.db,
        sql`SELECT metadata FROM security_events WHERE event_type = 'MFA_POLICY_CHANGED' ORDER BY id DESC LIMIT 1`,
      );
      expect(changed).toEqual({ metadata: { roleId: 404, policy: 'required' } });
    } finally {
      await call(
        { ip: '127.0.0.1', cookie: admin },
        { method: 'PUT', url: '/api/admin/mfa-policy/404', payload: { policy: 'once_enrolled' } },
      );
    }
    nextStep();
  });

  it('enrolment needs a session or an enrolment challenge', async () => {
    const res = await call({ ip: newIp() }, { method: 'POST', url: '/api/auth/mfa/totp/enrol' });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('SIGN_IN_EXPIRED');
  });
});

describe('re-authentication before break-the-glass', () => {
  const breakGlass = (p: { ip: string; cookie: string }) =>
    call(p, { method: 'POST', url: `/api/patients/${patientId}/access`, payload: { consent: false, reason: 'Unconscious on arrival' } });

  it('an enrolled user needs a second factor within 10 minutes; consent grants do not', async () => {
    const p = await enrol(await person(3));
    const session = await twoStepSignIn(p, codeFor(p.secret!));
    nextStep();
    const me = { ip: p.ip, cookie: session };
    expect((await breakGlass(me)).statusCode).toBe(201); // the sign-in's code is fresh
    clock.advance(11 * 60_000);
    const stale = await breakGlass(me);
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe('REAUTH_REQUIRED');
    expect((await call(me, { method: 'POST', url: `/api/patients/${patientId}/access`, payload: { consent: true } })).statusCode).toBe(201);

    const wrong = await call(me, { method: 'POST', url: '/api/auth/reauth', payload: { code: '000000' } });
    expect(wrong.statusCode).toBe(401);
    expect((await breakGlass(me)).statusCode).toBe(403);
    const ok = await call(me, { method: 'POST', url: '/api/auth/reauth', payload: { code: codeFor(p.secret!) } });
    expect(ok.statusCode).toBe(200);
    expect((await call(me, { method: 'GET', url: '/api/auth/mfa' })).json()).toMatchObject({ reauthFresh: true });
    expect((await breakGlass(me)).statusCode).toBe(201);
    expect(await eventsOf(p.user.id)).toContain('REAUTH_SUCCESS');
    nextStep();
  });

  it("one user's re-authentication does not serve another session", async () => {
    const p = await enrol(await person(3));
    const a = await twoStepSignIn(p, codeFor(p.secret!));
    nextStep();
    const b = await twoStepSignIn(p, codeFor(p.secret!));
    nextStep();
    clock.advance(11 * 60_000);
    expect(
      (await call({ ip: p.ip, cookie: a }, { method: 'POST', url: '/api/auth/reauth', payload: { code: codeFor(p.secret!) } })).statusCode,
    ).toBe(200);
    expect((await breakGlass({ ip: p.ip, cookie: b })).json().code).toBe('REAUTH_REQUIRED');
    nextStep();
  });

  it('a user without a second factor is not asked (nothing to prove); reauth then says so', async () => {
    const p = await person(3);
    expect((await breakGlass(p)).statusCode).toBe(201);
    const res = await call(p, { method: 'POST', url: '/api/auth/reauth', payload: { code: '123456' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('SECOND_FACTOR_NOT_ENROLLED');
  });

  it('refuses malformed codes with 400 and changes nothing', async () => {
    const p = await person(3);
    const before = await count(sql`SELECT count(*)::int AS n FROM security_events`);
    for (const code of ['', '12345', '1234567', 'abc', 'x'.repeat(40), 12345]) {
      const res = await call(p, { method: 'POST', url: '/api/auth/reauth', payload: { code } });
      expect(res.statusCode).toBe(400);
    }
    expect(await count(sql`SELECT count(*)::int AS n FROM security_events`)).toBe(before);
  });
});

describe('re-authentication beyond the hourly grant volume (issue 10 item 8)', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ now: clock.now, alerts: { ...t.config.alerts, grantsPerHour: 2 } });
  });
  afterAll(async () => {
    await small?.close();
  });

  it('an enrolled user past the volume needs a fresh second factor even for consent grants; the code lets them go on', async () => {
    const user = await createStaffUser(small.db, { roleId: 3 });
    const ip = newIp();
    const inject = (options: InjectOptions, cookie: string | null) =>
      small.app.inject({ remoteAddress: ip, ...options, headers: cookie ? { cookie } : {} });
    const first = await inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } }, null);
    const cookie = cookieOf(first, 'nhr_sid')!;
    const started = await inject({ method: 'POST', url: '/api/auth/mfa/totp/enrol' }, cookie);
    const secret = started.json().secret as string;
    expect(
      (await inject({ method: 'POST', url: '/api/auth/mfa/totp/confirm', payload: { code: codeFor(secret) } }, cookie)).statusCode,
    ).toBe(200);
    nextStep();
    clock.advance(11 * 60_000); // the enrolment's proof is no longer fresh
    const patients = await Promise.all([1, 2, 3, 4].map(() => createPatient(small.db)));
    const consent = (id: number) => inject({ method: 'POST', url: `/api/patients/${id}/access`, payload: { consent: true } }, cookie);
    expect((await consent(patients[0]!.id)).statusCode).toBe(201);
    expect((await consent(patients[1]!.id)).statusCode).toBe(201);
    expect((await consent(patients[2]!.id)).statusCode).toBe(201); // the third is still within 2 before it
    const over = await consent(patients[3]!.id);
    expect(over.statusCode).toBe(403);
    expect(over.json().code).toBe('REAUTH_REQUIRED');
    expect((await inject({ method: 'POST', url: '/api/auth/reauth', payload: { code: codeFor(secret) } }, cookie)).statusCode).toBe(200);
    expect((await consent(patients[3]!.id)).statusCode).toBe(201);
    nextStep();
  });
});

describe('the TOTP seed at rest', () => {
  it('is stored sealed, never as the seed; a seed stored before sealing still verifies', async () => {
    const p = await enrol(await person(3));
    const stored = (await queryOne<{ secret: string }>(t.db, sql`SELECT secret FROM staff_totp WHERE user_id = ${p.user.id}`))!.secret;
    expect(stored).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored).not.toContain(p.secret!);
    expect(await twoStepSignIn(p, codeFor(p.secret!))).toBeTruthy();
    nextStep();

    await t.db.execute(sql`UPDATE staff_totp SET secret = ${p.secret!} WHERE user_id = ${p.user.id}`);
    expect(await twoStepSignIn(p, codeFor(p.secret!))).toBeTruthy();
    nextStep();
  });
});
