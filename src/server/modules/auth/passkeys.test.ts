// Staff passkeys (issue 12 item 2, decision 026) through the real app and database, with answers from a software
// authenticator (src/server/test/webauthn-authenticator.ts) that @simplewebauthn/server checks: registration on the
// profile, sign-in without the password, the passkey in place of the code after the password and before
// break-the-glass, and every refusal: someone else's passkey, a patient's passkey, a replayed or expired challenge,
// a wrong origin, no user verification; failures count toward the lockout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { testClock } from '../../test/clock';
import { createPatient } from '../../test/patient-fixtures';
import { signInPatient } from '../../test/portal-fixtures';
import { queryOne, queryRows } from '../../test/sql';
import { createStaffUser, type StaffUser } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { TestAuthenticator, type AnswerOverrides } from '../../test/webauthn-authenticator';

const clock = testClock(new Date('2026-11-21T08:00:00Z'));
let t: TestApp;
let origin: string;
let patientId: number;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  origin = t.config.webauthn.origins[0]!;
  patientId = (await createPatient(t.db)).id;
});
afterAll(async () => {
  await t?.close();
});

let ipCounter = 1;
const newIp = (): string => `10.22.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

function cookieOf(res: LightMyRequestResponse, name: string): string | null {
  const c = res.cookies.find((x) => x.name === name);
  return c && c.value ? `${name}=${c.value}` : null;
}

interface Person {
  user: StaffUser;
  ip: string;
  cookie: string;
  device: TestAuthenticator;
}

const call = (p: { ip: string; cookie?: string | null }, options: InjectOptions) =>
  t.app.inject({ remoteAddress: p.ip, ...options, headers: { ...(p.cookie ? { cookie: p.cookie } : {}), ...(options.headers ?? {}) } });

/** A new user of this role, signed in with the password (no second factor yet), with a device of their own. */
async function person(roleId: number): Promise<Person> {
  const user = await createStaffUser(t.db, { roleId });
  const ip = newIp();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ip,
    payload: { email: user.email, password: user.password },
  });
  expect(res.statusCode).toBe(200);
  return { user, ip, cookie: cookieOf(res, 'nhr_sid')!, device: new TestAuthenticator({ origin }) };
}

/** Registers a passkey of p's device on their profile; answers the passkey's id. */
async function registerPasskey(p: Person, name = 'Work laptop'): Promise<string> {
  const options = await call(p, { method: 'POST', url: '/api/auth/passkeys/registration-options' });
  expect(options.statusCode, options.body).toBe(200);
  const res = await call(p, { method: 'POST', url: '/api/auth/passkeys', payload: { name, response: p.device.register(options.json()) } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

const options = (p: { ip: string; cookie?: string | null }, purpose: string) =>
  call(p, { method: 'POST', url: '/api/auth/passkey/options', payload: { purpose } });

/** Signed out: the passkey alone, as the login page's "Sign in with a passkey". */
async function passkeySignIn(p: Pick<Person, 'ip' | 'device'>, overrides: AnswerOverrides = {}): Promise<LightMyRequestResponse> {
  const opts = await options({ ip: p.ip }, 'sign_in');
  expect(opts.statusCode).toBe(200);
  return call(
    { ip: p.ip },
    { method: 'POST', url: '/api/auth/passkey-login', payload: { response: p.device.assert(opts.json(), overrides) } },
  );
}

const eventsOf = async (userId: string): Promise<string[]> =>
  (await queryRows<{ event_type: string }>(t.db, sql`SELECT event_type FROM security_events WHERE user_id = ${userId} ORDER BY id`)).map(
    (r) => r.event_type,
  );
const lastFailure = async (): Promise<Record<string, unknown>> =>
  (await queryOne<{ metadata: Record<string, unknown> }>(
    t.db,
    sql`SELECT metadata FROM security_events WHERE event_type = 'LOGIN_FAILURE' ORDER BY id DESC LIMIT 1`,
  ))!.metadata;
const breakGlass = (p: { ip: string; cookie: string }) =>
  call(p, { method: 'POST', url: `/api/patients/${patientId}/access`, payload: { consent: false, reason: 'Unconscious on arrival' } });

describe('registering a passkey on My Profile', () => {
  it('lists it by name; the public key is stored, the challenge is gone, and each step is a security event', async () => {
    const p = await person(3);
    expect((await call(p, { method: 'GET', url: '/api/auth/passkeys' })).json()).toEqual([]);
    const id = await registerPasskey(p, 'Clinic phone');
    const list = await call(p, { method: 'GET', url: '/api/auth/passkeys' });
    expect(list.json()).toEqual([{ id, name: 'Clinic phone', createdAt: clock.now().toISOString(), lastUsedAt: null }]);
    const row = await queryOne<{ user_id: string; patient_id: number | null; n: number }>(
      t.db,
      sql`SELECT user_id, patient_id, (SELECT count(*)::int FROM webauthn_challenges WHERE user_id = ${p.user.id}) AS n
          FROM webauthn_credentials WHERE id = ${id}`,
    );
    expect(row).toEqual({ user_id: p.user.id, patient_id: null, n: 0 });
    expect(await eventsOf(p.user.id)).toEqual(expect.arrayContaining(['PASSKEY_REGISTRATION_STARTED', 'PASSKEY_REGISTERED']));
    const status = await call(p, { method: 'GET', url: '/api/auth/mfa' });
    expect(status.json()).toMatchObject({ passkeys: 1, totpEnabled: false });
  });

  it('refuses a replayed registration, an expired challenge, a wrong origin, no user verification and a signed-out caller', async () => {
    const p = await person(3);
    const opts = (await call(p, { method: 'POST', url: '/api/auth/passkeys/registration-options' })).json();
    const answer = p.device.register(opts);
    expect((await call(p, { method: 'POST', url: '/api/auth/passkeys', payload: { name: 'A', response: answer } })).statusCode).toBe(201);
    const replay = await call(p, { method: 'POST', url: '/api/auth/passkeys', payload: { name: 'B', response: answer } });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('PASSKEY_REGISTRATION_FAILED');

    const fresh = async (overrides: AnswerOverrides = {}, wait = 0) => {
      const o = (await call(p, { method: 'POST', url: '/api/auth/passkeys/registration-options' })).json();
      clock.advance(wait);
      return call(p, { method: 'POST', url: '/api/auth/passkeys', payload: { name: 'X', response: p.device.register(o, overrides) } });
    };
    expect((await fresh({}, 5 * 60_000 + 1000)).json().code).toBe('PASSKEY_REGISTRATION_FAILED');
    expect((await fresh({ origin: 'https://evil.example' })).json().code).toBe('PASSKEY_REGISTRATION_FAILED');
    expect((await fresh({ userVerified: false })).json().code).toBe('PASSKEY_REGISTRATION_FAILED');
    expect((await call(p, { method: 'GET', url: '/api/auth/passkeys' })).json()).toHaveLength(1);
    const reasons = await queryRows<{ reason: string }>(
      t.db,
      sql`SELECT metadata->>'reason' AS reason FROM security_events
          WHERE user_id = ${p.user.id} AND event_type = 'PASSKEY_REGISTRATION_REFUSED' ORDER BY id`,
    );
    expect(reasons.map((r) => r.reason)).toEqual([
      'challenge_expired_or_used',
      'challenge_expired_or_used',
      'verification_failed',
      'verification_failed',
    ]);

    const signedOut = await call({ ip: p.ip }, { method: 'POST', url: '/api/auth/passkeys/registration-options' });
    expect(signedOut.statusCode).toBe(401);
  });

  it("a registration challenge of one session does not serve another user's session", async () => {
    const a = await person(3);
    const b = await person(3);
    const opts = (await call(a, { method: 'POST', url: '/api/auth/passkeys/registration-options' })).json();
    const res = await call(b, {
      method: 'POST',
      url: '/api/auth/passkeys',
      payload: { name: 'Stolen', response: b.device.register(opts) },
    });
    expect(res.statusCode).toBe(400);
    expect((await call(b, { method: 'GET', url: '/api/auth/passkeys' })).json()).toEqual([]);
  });
});

describe('signing in with a passkey instead of the password', () => {
  it('opens a session fresh for break-the-glass (user verification is the second factor), and records LOGIN_SUCCESS', async () => {
    const p = await person(3);
    const id = await registerPasskey(p);
    const res = await passkeySignIn(p);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ id: p.user.id, email: p.user.email });
    const cookie = cookieOf(res, 'nhr_sid')!;
    expect((await call({ ip: p.ip, cookie }, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(200);
    expect((await call({ ip: p.ip, cookie }, { method: 'GET', url: '/api/auth/mfa' })).json()).toMatchObject({ reauthFresh: true });
    expect((await breakGlass({ ip: p.ip, cookie })).statusCode).toBe(201);
    const success = await queryOne<{ metadata: Record<string, unknown> }>(
      t.db,
      sql`SELECT metadata FROM security_events WHERE user_id = ${p.user.id} AND event_type = 'LOGIN_SUCCESS' ORDER BY id DESC LIMIT 1`,
    );
    expect(success!.metadata).toEqual({ secondFactor: 'passkey' });
    const used = (await call({ ip: p.ip, cookie }, { method: 'GET', url: '/api/auth/passkeys' })).json();
    expect(used).toEqual([expect.objectContaining({ id, lastUsedAt: clock.now().toISOString() })]);
  });

  it('refuses a replayed answer (the challenge works once), an expired challenge, a wrong origin and no user verification', async () => {
    const p = await person(3);
    await registerPasskey(p);
    const opts = (await options({ ip: p.ip }, 'sign_in')).json();
    const answer = p.device.assert(opts);
    const login = (response: unknown) => call({ ip: p.ip }, { method: 'POST', url: '/api/auth/passkey-login', payload: { response } });
    expect((await login(answer)).statusCode).toBe(200);
    const replay = await login(answer);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('PASSKEY_FAILED');
    expect(cookieOf(replay, 'nhr_sid')).toBeNull();
    expect(await lastFailure()).toMatchObject({ factor: 'passkey', reason: 'challenge_expired_or_used' });

    const late = (await options({ ip: p.ip }, 'sign_in')).json();
    clock.advance(5 * 60_000 + 1000);
    expect((await login(p.device.assert(late))).statusCode).toBe(401);
    expect(await lastFailure()).toMatchObject({ reason: 'challenge_expired_or_used' });

    expect((await passkeySignIn(p, { origin: 'https://phish.example' })).statusCode).toBe(401);
    expect(await lastFailure()).toMatchObject({ reason: 'verification_failed' });
    expect((await passkeySignIn(p, { userVerified: false })).statusCode).toBe(401);
    expect((await passkeySignIn(p, { counter: 0 })).statusCode).toBe(401); // the counter went backwards: a cloned key
    // A challenge asked for another purpose (here: a re-authentication of a signed-in session) does not sign in.
    const reauthOpts = await options(p, 'reauth');
    expect((await login(p.device.assert(reauthOpts.json()))).statusCode).toBe(401);
  });

  it("refuses a patient's passkey on the staff sign-in", async () => {
    const patient = await createPatient(t.db);
    const ip = newIp();
    const cookie = await signInPatient(t, { id: patient.id, ncNumber: patient.idNumber, dateOfBirth: patient.dateOfBirth }, ip);
    const device = new TestAuthenticator({ origin });
    const opts = (await call({ ip, cookie }, { method: 'POST', url: '/api/auth/passkeys/registration-options' })).json();
    const reg = await call(
      { ip, cookie },
      { method: 'POST', url: '/api/auth/passkeys', payload: { name: 'My phone', response: device.register(opts) } },
    );
    expect(reg.statusCode, reg.body).toBe(201);
    const res = await passkeySignIn({ ip, device });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('PASSKEY_FAILED');
    expect(cookieOf(res, 'nhr_sid')).toBeNull();
    expect(await lastFailure()).toMatchObject({ factor: 'passkey', reason: 'patient_credential' });
  });

  it('refuses an unknown passkey and a deactivated account', async () => {
    const stranger = new TestAuthenticator({ origin });
    stranger.register({ challenge: 'AAAAAAAAAAAAAAAAAAAAAA', rp: { id: t.config.webauthn.rpId }, user: { id: 'x' } });
    expect((await passkeySignIn({ ip: newIp(), device: stranger })).statusCode).toBe(401);
    expect(await lastFailure()).toMatchObject({ reason: 'unknown_credential' });

    const p = await person(4);
    await registerPasskey(p);
    await t.db.execute(sql`UPDATE users SET is_active = false WHERE id = ${p.user.id}`);
    expect((await passkeySignIn(p)).statusCode).toBe(401);
    expect(await lastFailure()).toMatchObject({ reason: 'account_inactive' });
  });

  it('5 failed passkey answers lock the account for 15 minutes, for the password too', async () => {
    const p = await person(3);
    await registerPasskey(p);
    clock.advance(1000); // after the password sign-in's LOGIN_SUCCESS (failures before it do not count)
    for (let i = 0; i < 5; i++) expect((await passkeySignIn(p, { origin: 'https://phish.example' })).statusCode).toBe(401);
    const locked = await passkeySignIn(p);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('LOCKED_OUT');
    const password = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: p.ip,
      payload: { email: p.user.email, password: p.user.password },
    });
    expect(password.statusCode).toBe(429);
    clock.advance(15 * 60_000 + 1000);
    expect((await passkeySignIn(p)).statusCode).toBe(200);
  });
});

describe('a passkey wherever the authenticator code is accepted', () => {
  it('after the password: the step offers the passkey, which opens the session; the code route still refuses without TOTP', async () => {
    const p = await person(3);
    await registerPasskey(p);
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: p.ip,
      payload: { email: p.user.email, password: p.user.password },
    });
    expect(first.json()).toEqual({ message: expect.any(String), secondFactor: 'verify', methods: ['passkey'] });
    expect(cookieOf(first, 'nhr_sid')).toBeNull();
    const mfa = cookieOf(first, 'nhr_mfa')!;
    const step = { ip: p.ip, cookie: mfa };
    const code = await call(step, { method: 'POST', url: '/api/auth/login/second-factor', payload: { code: '123456' } });
    expect(code.json().code).toBe('INVALID_SECOND_FACTOR');
    const opts = await options(step, 'second_factor');
    expect(opts.json().allowCredentials).toHaveLength(1);
    const res = await call(step, {
      method: 'POST',
      url: '/api/auth/login/second-factor/passkey',
      payload: { response: p.device.assert(opts.json()) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(cookieOf(res, 'nhr_sid')).not.toBeNull();
    // The step is single use.
    const again = await options(step, 'second_factor');
    expect(again.json().code).toBe('SIGN_IN_EXPIRED');
  });

  it("after the password: someone else's passkey is refused and counts against the account signing in", async () => {
    const victim = await person(3);
    await registerPasskey(victim);
    const attacker = await person(3);
    await registerPasskey(attacker);
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: victim.ip,
      payload: { email: victim.user.email, password: victim.user.password },
    });
    const step = { ip: victim.ip, cookie: cookieOf(first, 'nhr_mfa')! };
    const opts = (await options(step, 'second_factor')).json();
    const attackerCredential = attacker.device.credentials[0]!.id.toString('base64url');
    const res = await call(step, {
      method: 'POST',
      url: '/api/auth/login/second-factor/passkey',
      payload: { response: attacker.device.assert(opts, { credentialId: attackerCredential }) },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('PASSKEY_FAILED');
    expect(cookieOf(res, 'nhr_sid')).toBeNull();
    expect(await lastFailure()).toMatchObject({ reason: 'other_users_credential' });
  });

  it('before break-the-glass: a stale session is asked again, and a passkey of this session confirms it', async () => {
    const p = await person(3);
    await registerPasskey(p);
    const signedIn = cookieOf(await passkeySignIn(p), 'nhr_sid')!;
    const s = { ip: p.ip, cookie: signedIn };
    clock.advance(11 * 60_000);
    const stale = await breakGlass(s);
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe('REAUTH_REQUIRED');

    // A re-authentication challenge of another session (here the older password session) does not serve this one.
    const otherOpts = (await options(p, 'reauth')).json();
    const wrongSession = await call(s, {
      method: 'POST',
      url: '/api/auth/reauth/passkey',
      payload: { response: p.device.assert(otherOpts) },
    });
    expect(wrongSession.statusCode).toBe(401);
    expect(await lastFailure()).toMatchObject({ reason: 'other_session' });

    const opts = (await options(s, 'reauth')).json();
    const ok = await call(s, { method: 'POST', url: '/api/auth/reauth/passkey', payload: { response: p.device.assert(opts) } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await breakGlass(s)).statusCode).toBe(201);
    expect(await eventsOf(p.user.id)).toEqual(expect.arrayContaining(['PASSKEY_CHALLENGE', 'REAUTH_SUCCESS']));
  });

  it('re-authentication without a passkey says so; a patient session may not ask for it', async () => {
    const p = await person(3);
    const res = await options(p, 'reauth');
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('SECOND_FACTOR_NOT_ENROLLED');
    expect((await options({ ip: p.ip }, 'reauth')).statusCode).toBe(401);
    expect((await options({ ip: p.ip }, 'second_factor')).json().code).toBe('SIGN_IN_EXPIRED');
  });
});

describe('removing a passkey', () => {
  it("removes only the caller's own: another user's is 404 and stays", async () => {
    const a = await person(5); // Receptionist: optional second factor
    const b = await person(5);
    const idA = await registerPasskey(a);
    const idB = await registerPasskey(b);
    const other = await call(a, { method: 'DELETE', url: `/api/auth/passkeys/${idB}` });
    expect(other.statusCode).toBe(404);
    expect(other.json().code).toBe('PASSKEY_NOT_FOUND');
    expect((await call(b, { method: 'GET', url: '/api/auth/passkeys' })).json()).toHaveLength(1);
    const own = await call(a, { method: 'DELETE', url: `/api/auth/passkeys/${idA}` });
    expect(own.statusCode).toBe(200);
    expect((await call(a, { method: 'GET', url: '/api/auth/passkeys' })).json()).toEqual([]);
    expect(await eventsOf(a.user.id)).toContain('PASSKEY_REMOVED');
    expect((await passkeySignIn(a)).statusCode).toBe(401);
  });

  it('in a session whose second factor is stale, adding or removing a passkey asks for it again first, changing nothing', async () => {
    const p = await person(5); // Receptionist: optional second factor
    const first = await registerPasskey(p, 'Desk key');
    const signedIn = cookieOf(await passkeySignIn(p), 'nhr_sid')!;
    const s = { ip: p.ip, cookie: signedIn };
    clock.advance(11 * 60_000); // the desk is left signed in
    const before = await eventsOf(p.user.id);

    const remove = await call(s, { method: 'DELETE', url: `/api/auth/passkeys/${first}` });
    expect(remove.statusCode).toBe(403);
    expect(remove.json().code).toBe('REAUTH_REQUIRED');
    const add = await call(s, { method: 'POST', url: '/api/auth/passkeys/registration-options' });
    expect(add.statusCode).toBe(403);
    expect(add.json().code).toBe('REAUTH_REQUIRED');
    expect((await call(s, { method: 'GET', url: '/api/auth/passkeys' })).json()).toHaveLength(1);
    expect(await eventsOf(p.user.id)).toEqual(before);
    const challenges = await queryOne<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM webauthn_challenges WHERE user_id = ${p.user.id} AND purpose = 'register'`,
    );
    expect(challenges!.n).toBe(0);

    // The owner proves the passkey again: both work.
    const opts = (await options(s, 'reauth')).json();
    expect(
      (await call(s, { method: 'POST', url: '/api/auth/reauth/passkey', payload: { response: p.device.assert(opts) } })).statusCode,
    ).toBe(200);
    const second = new TestAuthenticator({ origin });
    const regOpts = await call(s, { method: 'POST', url: '/api/auth/passkeys/registration-options' });
    expect(regOpts.statusCode).toBe(200);
    const added = await call(s, {
      method: 'POST',
      url: '/api/auth/passkeys',
      payload: { name: 'Phone', response: second.register(regOpts.json()) },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect((await call(s, { method: 'DELETE', url: `/api/auth/passkeys/${first}` })).statusCode).toBe(200);
  });

  it('a role that keeps the second factor once enrolled cannot remove its last one', async () => {
    const p = await person(3); // Doctor: once_enrolled
    const first = await registerPasskey(p, 'One');
    const refused = await call(p, { method: 'DELETE', url: `/api/auth/passkeys/${first}` });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('SECOND_FACTOR_REQUIRED_BY_ROLE');
    p.device = new TestAuthenticator({ origin });
    await registerPasskey(p, 'Two');
    expect((await call(p, { method: 'DELETE', url: `/api/auth/passkeys/${first}` })).statusCode).toBe(200);
  });
});
