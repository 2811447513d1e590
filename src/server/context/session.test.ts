import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { testClock } from '../test/clock';
import { createStaffUser, signIn, type StaffUser } from '../test/staff';
import { queryOne, queryRows } from '../test/sql';
import { createTestApp, testConfig, type TestApp } from '../test/test-app';
import { createSession, hashToken, purgeExpiredSessions, SESSION_POLICY } from './session';

const MINUTE = 60_000;
const clock = testClock(new Date('2026-03-02T08:00:00Z'));
let t: TestApp;
let doctor: StaffUser;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  doctor = await createStaffUser(t.db, { roleId: 3 });
});
afterAll(async () => {
  await t?.close();
});

const me = (cookie: string, app: FastifyInstance = t.app) => app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
const tokenOf = (cookie: string): string => cookie.slice('nhr_sid='.length);
// Raw queries return timestamps as text; the epoch keeps the comparison exact.
const sessionRow = (cookie: string) =>
  queryOne<{ sid: string; sess: Record<string, unknown>; expire_ms: number }>(
    t.db,
    sql`SELECT sid, sess, (extract(epoch FROM expire) * 1000)::float8 AS expire_ms FROM sessions WHERE sid = ${hashToken(tokenOf(cookie))}`,
  );

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, path / and not Secure outside production', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: doctor.email, password: doctor.password } });
    expect(res.statusCode).toBe(200);
    const header = String(res.headers['set-cookie']);
    expect(header).toMatch(/^nhr_sid=[A-Za-z0-9_-]{43};/);
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; SameSite=Lax/);
    expect(header).toMatch(/; Path=\//);
    expect(header).not.toMatch(/Secure/);
  });

  it('is Secure in production', async () => {
    const app = await buildApp({ db: t.db, config: testConfig({ production: true, now: clock.now }) });
    try {
      const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: doctor.email, password: doctor.password } });
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['set-cookie'])).toMatch(/; Secure/);
    } finally {
      await app.close();
    }
  });

  it('holds a random token whose SHA-256 is the sid; the token itself is stored nowhere', async () => {
    const cookie = await signIn(t.app, doctor.email, doctor.password);
    const row = await sessionRow(cookie);
    expect(row?.sid).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.sess).toMatchObject({ kind: 'staff', userId: doctor.id });
    expect(JSON.stringify(row)).not.toContain(tokenOf(cookie));
    const found = await queryRows(t.db, sql`SELECT 1 FROM sessions WHERE sid = ${tokenOf(cookie)}`);
    expect(found).toHaveLength(0);
  });

  it('is ignored when malformed or unknown', async () => {
    for (const cookie of ['nhr_sid=abc', `nhr_sid=${'A'.repeat(43)}`, `nhr_sid=${'x'.repeat(10_000)}`]) {
      const res = await me(cookie);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });
});

describe('sign-in and sign-out', () => {
  it('gives a new session id at every sign-in and ends the one the request came with', async () => {
    const first = await signIn(t.app, doctor.email, doctor.password);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: doctor.email, password: doctor.password },
      headers: { cookie: first },
    });
    expect(res.statusCode).toBe(200);
    const second = `nhr_sid=${res.cookies.find((c) => c.name === 'nhr_sid')!.value}`;
    expect(second).not.toBe(first);
    expect((await me(first)).statusCode).toBe(401);
    expect(await sessionRow(first)).toBeUndefined();
    expect((await me(second)).statusCode).toBe(200);
  });

  it('logout deletes the session row, clears the cookie and closes the user_sessions row', async () => {
    const cookie = await signIn(t.app, doctor.email, doctor.password);
    const sid = hashToken(tokenOf(cookie));
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Logged out successfully' });
    expect(String(res.headers['set-cookie'])).toMatch(/^nhr_sid=;.*Expires=Thu, 01 Jan 1970/);
    expect(await sessionRow(cookie)).toBeUndefined();
    expect((await me(cookie)).statusCode).toBe(401);
    const us = await queryOne<{ is_active: boolean }>(t.db, sql`SELECT is_active FROM user_sessions WHERE session_id = ${sid}`);
    expect(us?.is_active).toBe(false);
    const event = await queryOne(t.db, sql`SELECT user_id FROM security_events WHERE event_type = 'LOGOUT' ORDER BY id DESC LIMIT 1`);
    expect(event).toEqual({ user_id: doctor.id });
  });

  it('logout answers 200 when already signed out', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(res.statusCode).toBe(200);
    const stale = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: `nhr_sid=${'B'.repeat(43)}` } });
    expect(stale.statusCode).toBe(200);
  });
});

describe('expiry', () => {
  it('ends a staff session after 30 idle minutes, and each request slides the window', async () => {
    const cookie = await signIn(t.app, doctor.email, doctor.password);
    clock.advance(29 * MINUTE);
    expect((await me(cookie)).statusCode).toBe(200);
    clock.advance(29 * MINUTE);
    expect((await me(cookie)).statusCode).toBe(200);
    clock.advance(30 * MINUTE + 1000);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('writes the sliding expiry at most once a minute', async () => {
    const cookie = await signIn(t.app, doctor.email, doctor.password);
    const initial = (await sessionRow(cookie))!.expire_ms;
    clock.advance(30_000);
    expect((await me(cookie)).statusCode).toBe(200);
    expect((await sessionRow(cookie))!.expire_ms).toBe(initial);
    clock.advance(31_000);
    expect((await me(cookie)).statusCode).toBe(200);
    expect((await sessionRow(cookie))!.expire_ms).toBe(clock.now().getTime() + SESSION_POLICY.staff.idleMs);
  });

  it('writes the sign-in last activity only when it is older than a minute', async () => {
    const cookie = await signIn(t.app, doctor.email, doctor.password);
    const lastActivity = async () =>
      (await queryOne<{ ms: number }>(
        t.db,
        sql`SELECT (extract(epoch FROM last_activity) * 1000)::float8 AS ms FROM user_sessions WHERE session_id = ${hashToken(tokenOf(cookie))}`,
      ))!.ms;
    const signedIn = clock.now().getTime();
    expect(await lastActivity()).toBe(signedIn);
    clock.advance(40_000);
    expect((await me(cookie)).statusCode).toBe(200);
    expect(await lastActivity()).toBe(signedIn);
    clock.advance(25_000);
    expect((await me(cookie)).statusCode).toBe(200);
    const touched = clock.now().getTime();
    expect(await lastActivity()).toBe(touched);
    clock.advance(10_000);
    expect((await me(cookie)).statusCode).toBe(200);
    expect(await lastActivity()).toBe(touched);
  });

  it('ends any session 12 hours after sign-in, however busy', async () => {
    const cookie = await signIn(t.app, doctor.email, doctor.password);
    for (let elapsed = 0; elapsed < 12 * 60 - 20; elapsed += 20) {
      clock.advance(20 * MINUTE);
      expect((await me(cookie)).statusCode).toBe(200);
    }
    clock.advance(21 * MINUTE);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('purges expired rows and closes their user_sessions rows', async () => {
    const cookie = await signIn(t.app, doctor.email, doctor.password);
    const live = await signIn(t.app, doctor.email, doctor.password);
    clock.advance(20 * MINUTE);
    expect((await me(live)).statusCode).toBe(200);
    clock.advance(11 * MINUTE);
    const purged = await purgeExpiredSessions(t.db, clock.now());
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await sessionRow(cookie)).toBeUndefined();
    expect(await sessionRow(live)).toBeDefined();
    const us = await queryOne<{ is_active: boolean }>(
      t.db,
      sql`SELECT is_active FROM user_sessions WHERE session_id = ${hashToken(tokenOf(cookie))}`,
    );
    expect(us?.is_active).toBe(false);
  });

  it('purges when an app instance starts, and stops the timer when it closes', async () => {
    const cookie = await signIn(t.app, doctor.email, doctor.password);
    clock.advance(31 * MINUTE);
    const app = await buildApp({ db: t.db, config: t.config });
    await app.ready();
    await app.close(); // waits for the start-up purge
    expect(await sessionRow(cookie)).toBeUndefined();
  });
});

describe('several app instances on one database', () => {
  it('honour each other’s sessions, sign-outs and deactivations', async () => {
    const other = await buildApp({ db: t.db, config: t.config });
    try {
      const cookie = await signIn(t.app, doctor.email, doctor.password);
      const res = await me(cookie, other);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: doctor.id });

      const fromOther = await signIn(other, doctor.email, doctor.password);
      expect((await me(fromOther)).statusCode).toBe(200);

      await other.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
      expect((await me(cookie)).statusCode).toBe(401);
      expect((await me(fromOther, other)).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('a session whose user is no longer active', () => {
  it('stops working on the next request, and stays ended after reactivation', async () => {
    const nurse = await createStaffUser(t.db, { roleId: 4 });
    const cookie = await signIn(t.app, nurse.email, nurse.password);
    expect((await me(cookie)).statusCode).toBe(200);
    await t.db.execute(sql`UPDATE users SET is_active = false WHERE id = ${nurse.id}`);
    expect((await me(cookie)).statusCode).toBe(401);
    expect(await sessionRow(cookie)).toBeUndefined();
    await t.db.execute(sql`UPDATE users SET is_active = true WHERE id = ${nurse.id}`);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('also ends when the account status changes from active', async () => {
    const nurse = await createStaffUser(t.db, { roleId: 4 });
    const cookie = await signIn(t.app, nurse.email, nurse.password);
    await t.db.execute(sql`UPDATE users SET account_status = 'suspended' WHERE id = ${nurse.id}`);
    expect((await me(cookie)).statusCode).toBe(401);
  });
});

describe('patient sessions', () => {
  it('are created by the same layer, idle out after 15 minutes, and are not staff sessions', async () => {
    const { token, sid } = await createSession(t.db, { kind: 'patient', patientId: 42 }, clock.now());
    expect(sid).toBe(hashToken(token));
    const row = await queryOne<{ sess: unknown; expire_ms: number }>(
      t.db,
      sql`SELECT sess, (extract(epoch FROM expire) * 1000)::float8 AS expire_ms FROM sessions WHERE sid = ${sid}`,
    );
    expect(row?.sess).toMatchObject({ kind: 'patient', patientId: 42 });
    expect(row!.expire_ms).toBe(clock.now().getTime() + SESSION_POLICY.patient.idleMs);
    // A patient session never passes a staff guard.
    expect((await me(`nhr_sid=${token}`)).statusCode).toBe(401);
    clock.advance(16 * MINUTE);
    expect(await purgeExpiredSessions(t.db, clock.now())).toBeGreaterThanOrEqual(1);
  });
});
