// Issue 21 item 13: a staff member whose only second factor was a passkey was locked out for good (no recovery codes,
// and the administrator's reset listed only authenticator-app users). Now a passkey as the first second factor comes
// with recovery codes (shown once) that work at sign-in and for re-authentication, and an administrator can reset
// any second factor (audited, sessions ended). Through the real app with a software authenticator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { testClock } from '../../test/clock';
import { queryOne } from '../../test/sql';
import { createStaffUser, signIn, type StaffUser } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { TestAuthenticator } from '../../test/webauthn-authenticator';

const clock = testClock(new Date('2026-11-25T08:00:00Z'));
let t: TestApp;
let origin: string;
let admin: { ip: string; cookie: string };
beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  origin = t.config.webauthn.origins[0]!;
  const a = await createStaffUser(t.db, { roleId: 2 });
  admin = { ip: '10.31.9.9', cookie: await signIn(t.app, a.email, a.password) };
});
afterAll(async () => {
  await t?.close();
});

let ipCounter = 1;
const newIp = (): string => `10.31.0.${ipCounter++}`;
const cookieOf = (res: LightMyRequestResponse): string | null => {
  const c = res.cookies.find((x) => x.name === 'nhr_sid');
  return c && c.value ? `nhr_sid=${c.value}` : null;
};
interface Person {
  user: StaffUser;
  ip: string;
  cookie: string;
  device: TestAuthenticator;
}
const call = (p: { ip: string; cookie?: string | null }, options: InjectOptions) =>
  t.app.inject({ remoteAddress: p.ip, ...options, headers: { ...(p.cookie ? { cookie: p.cookie } : {}), ...(options.headers ?? {}) } });

async function personWithPasskey(): Promise<Person & { codes: string[] }> {
  const user = await createStaffUser(t.db, { roleId: 3 });
  const ip = newIp();
  const cookie = await signIn(t.app, user.email, user.password);
  const p: Person = { user, ip, cookie, device: new TestAuthenticator({ origin }) };
  const options = await call(p, { method: 'POST', url: '/api/auth/passkeys/registration-options' });
  const res = await call(p, {
    method: 'POST',
    url: '/api/auth/passkeys',
    payload: { name: 'Clinic laptop', response: p.device.register(options.json()) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { ...p, codes: res.json().recoveryCodes as string[] };
}

/** The password step on another computer: answers the pending step's cookie jar (nhr_mfa). */
async function passwordStep(p: Person, ip = newIp()): Promise<{ ip: string; cookie: string; body: Record<string, unknown> }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ip,
    payload: { email: p.user.email, password: p.user.password },
  });
  expect(res.statusCode).toBe(200);
  const c = res.cookies.find((x) => x.name === 'nhr_mfa')!;
  return { ip, cookie: `nhr_mfa=${c.value}`, body: res.json() };
}

describe('recovery codes for a passkey', () => {
  it('are given once when the passkey is the first second factor, and not again for a second passkey', async () => {
    const p = await personWithPasskey();
    expect(p.codes).toHaveLength(10);
    expect(new Set(p.codes).size).toBe(10);
    const stored = await queryOne<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM staff_recovery_codes WHERE user_id = ${p.user.id}`,
    );
    expect(stored!.n).toBe(10);
    const options = await call(p, { method: 'POST', url: '/api/auth/passkeys/registration-options' });
    const second = await call(p, {
      method: 'POST',
      url: '/api/auth/passkeys',
      payload: { name: 'Phone', response: new TestAuthenticator({ origin }).register(options.json()) },
    });
    expect(second.statusCode).toBe(201);
    expect(second.json().recoveryCodes).toBeUndefined();
  });

  it('sign a passkey-only user in on another computer, once each; a wrong or reused code is refused', async () => {
    const p = await personWithPasskey();
    const step = await passwordStep(p);
    expect(step.body).toMatchObject({ secondFactor: 'verify', methods: ['passkey'] });
    const wrong = await call(step, { method: 'POST', url: '/api/auth/login/second-factor', payload: { code: 'aaaaa-bbbbb' } });
    expect(wrong.statusCode).toBe(401);
    const ok = await call(step, { method: 'POST', url: '/api/auth/login/second-factor', payload: { code: p.codes[0] } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(cookieOf(ok)).not.toBeNull();
    const used = await queryOne(
      t.db,
      sql`SELECT event_type FROM security_events WHERE user_id = ${p.user.id} AND event_type = 'MFA_RECOVERY_CODE_USED'`,
    );
    expect(used).toBeDefined();
    const again = await passwordStep(p);
    const reused = await call(again, { method: 'POST', url: '/api/auth/login/second-factor', payload: { code: p.codes[0] } });
    expect(reused.statusCode).toBe(401);
  });

  it('re-authenticate a passkey-only user before break-the-glass', async () => {
    const p = await personWithPasskey();
    clock.advance(11 * 60_000); // the registration's proof is no longer fresh
    const fresh = await signIn(t.app, p.user.email, p.user.password).catch(() => null);
    expect(fresh).toBeNull(); // the password alone does not sign a passkey user in
    const res = await call(p, { method: 'POST', url: '/api/auth/reauth', payload: { code: p.codes[1] } });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe("an administrator's reset of any second factor", () => {
  it('lists passkey-only users with what they have', async () => {
    const p = await personWithPasskey();
    const list = await call(admin, { method: 'GET', url: '/api/admin/second-factors' });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toContainEqual(expect.objectContaining({ userId: p.user.id, totp: false, passkeys: 1 }));
  });

  it('removes passkeys, recovery codes and sessions, audited with a high event; then the password alone signs in', async () => {
    const p = await personWithPasskey();
    const res = await call(admin, { method: 'DELETE', url: `/api/admin/users/${p.user.id}/second-factors` });
    expect(res.statusCode, res.body).toBe(200);
    const left = await queryOne<{ keys: number; codes: number; sessions: number }>(
      t.db,
      sql`SELECT (SELECT count(*)::int FROM webauthn_credentials WHERE user_id = ${p.user.id}) AS keys,
                 (SELECT count(*)::int FROM staff_recovery_codes WHERE user_id = ${p.user.id}) AS codes,
                 (SELECT count(*)::int FROM sessions WHERE sess->>'userId' = ${p.user.id}) AS sessions`,
    );
    expect(left).toEqual({ keys: 0, codes: 0, sessions: 0 });
    expect((await call(p, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    const audit = await queryOne(
      t.db,
      sql`SELECT action, resource_type, old_values->>'passkeys' AS passkeys FROM audit_logs WHERE resource_id = ${p.user.id} ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({ action: 'UPDATE', resource_type: 'USER', passkeys: '1' });
    const event = await queryOne(
      t.db,
      sql`SELECT severity FROM security_events WHERE user_id = ${p.user.id} AND event_type = 'MFA_RESET_BY_ADMIN'`,
    );
    expect(event).toEqual({ severity: 'high' });
    expect(await signIn(t.app, p.user.email, p.user.password)).toMatch(/^nhr_sid=/);
  });

  it('answers 409 with nothing to reset, 404 for an unknown user, 403 for one’s own and for a non-administrator', async () => {
    const plain = await createStaffUser(t.db, { roleId: 3 });
    const nothing = await call(admin, { method: 'DELETE', url: `/api/admin/users/${plain.id}/second-factors` });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().code).toBe('USER_NO_SECOND_FACTOR');
    expect(
      (await call(admin, { method: 'DELETE', url: '/api/admin/users/00000000-0000-0000-0000-000000000000/second-factors' })).statusCode,
    ).toBe(404);
    const p = await personWithPasskey();
    const byDoctor = await call(p, { method: 'DELETE', url: `/api/admin/users/${p.user.id}/second-factors` });
    expect(byDoctor.statusCode).toBe(403);
    const keys = await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM webauthn_credentials WHERE user_id = ${p.user.id}`);
    expect(keys!.n).toBe(1);
  });
});
