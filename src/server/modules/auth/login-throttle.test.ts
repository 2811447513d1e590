// DESIGN.md §5: 5 failures for an account in 15 minutes lock it for 15 minutes; 100 attempts per IP per 15 minutes.
// The clock is the app's injectable one: no sleeping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { testClock } from '../../test/clock';
import { createStaffUser, type StaffUser } from '../../test/staff';
import { queryOne } from '../../test/sql';
import { createTestApp, type TestApp } from '../../test/test-app';

const MINUTE = 60_000;
const LOCKED = { message: 'Too many failed sign-in attempts. Try again in 15 minutes.', code: 'LOCKED_OUT' };
const clock = testClock(new Date('2026-03-02T08:00:00Z'));
let t: TestApp;
let ip = 0;
/** Each test signs in from its own address, so the per-IP limit only shows where a test wants it. */
let address: string;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
});
afterAll(async () => {
  await t?.close();
});

const attempt = (email: string, password: string, app: FastifyInstance = t.app, remoteAddress = address) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });
const fail = async (email: string, times: number): Promise<void> => {
  for (let i = 0; i < times; i++) expect((await attempt(email, 'wrong password')).statusCode).toBe(401);
};

describe('account lockout', () => {
  let user: StaffUser;
  beforeAll(() => {
    address = `10.0.0.${++ip}`;
  });

  it('refuses the account with 429 after 5 failures, even with the right password, for 15 minutes', async () => {
    user = await createStaffUser(t.db, { roleId: 3 });
    await fail(user.email, 4);
    clock.advance(5 * MINUTE);
    await fail(user.email, 1); // the 5th failure within 15 minutes: the lock starts now
    const locked = await attempt(user.email, user.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual(LOCKED);
    expect(locked.headers['retry-after']).toBe('900');
    expect(locked.headers['set-cookie']).toBeUndefined();
    const event = await queryOne(
      t.db,
      sql`SELECT user_id, subject, metadata->>'reason' AS reason FROM security_events WHERE event_type = 'LOGIN_LOCKED' ORDER BY id DESC LIMIT 1`,
    );
    expect(event).toEqual({ user_id: null, subject: user.email, reason: 'account' });

    clock.advance(14 * MINUTE);
    const still = await attempt(user.email, user.password);
    expect(still.statusCode).toBe(429);
    expect(Number(still.headers['retry-after'])).toBe(60);
  });

  it('releases the account 15 minutes after the lock started', async () => {
    clock.advance(MINUTE);
    expect((await attempt(user.email, user.password)).statusCode).toBe(200);
  });

  it('locks across app instances: the failures are counted in the database', async () => {
    const other = await buildApp({ db: t.db, config: t.config });
    try {
      const nurse = await createStaffUser(t.db, { roleId: 4 });
      await fail(nurse.email, 5);
      const res = await attempt(nurse.email, nurse.password, other);
      expect(res.statusCode).toBe(429);
    } finally {
      await other.close();
    }
  });

  it('locks an unknown e-mail the same way, so the answer reveals nothing', async () => {
    await fail('ghost@health.gov.na', 5);
    const res = await attempt('ghost@health.gov.na', 'anything');
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual(LOCKED);
  });

  it('counts failures per account in any letter case, and leaves other accounts alone', async () => {
    const a = await createStaffUser(t.db, { roleId: 3 });
    const b = await createStaffUser(t.db, { roleId: 3 });
    for (const email of [a.email, a.email.toUpperCase(), a.email, a.email.toUpperCase(), a.email]) await fail(email, 1);
    expect((await attempt(a.email, a.password)).statusCode).toBe(429);
    expect((await attempt(b.email, b.password)).statusCode).toBe(200);
  });

  it('does not count failures spread over more than 15 minutes', async () => {
    const u = await createStaffUser(t.db, { roleId: 3 });
    await fail(u.email, 4);
    clock.advance(16 * MINUTE);
    await fail(u.email, 1);
    expect((await attempt(u.email, u.password)).statusCode).toBe(200);
  });

  it('counts a parallel burst exactly: 5 failures, then 429s', async () => {
    const u = await createStaffUser(t.db, { roleId: 3 });
    const burst = await Promise.all(Array.from({ length: 20 }, () => attempt(u.email, 'wrong password')));
    const statuses = burst.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(15).fill(429)]);
    clock.advance(15 * MINUTE);
  });

  it('forgets failures before a successful sign-in', async () => {
    const u = await createStaffUser(t.db, { roleId: 3 });
    await fail(u.email, 4);
    expect((await attempt(u.email, u.password)).statusCode).toBe(200);
    await fail(u.email, 4);
    expect((await attempt(u.email, u.password)).statusCode).toBe(200);
  });
});

describe('per-IP limit', () => {
  it('refuses the 101st attempt from one address within 15 minutes, whatever the account', async () => {
    address = `10.0.1.${++ip}`;
    const u = await createStaffUser(t.db, { roleId: 3 });
    // 98 earlier attempts from this address, recorded as the service records them (a subject marks an attempt).
    await t.db.execute(sql`
      INSERT INTO security_events (event_type, severity, description, ip_address, subject, timestamp)
      SELECT 'LOGIN_FAILURE', 'medium', 'Sign-in failed', ${address}, 'user' || g || '@elsewhere.na', ${clock.now().toISOString()}::timestamptz
      FROM generate_series(1, 98) g`);
    await fail('someone@health.gov.na', 1); // 99
    expect((await attempt(u.email, u.password)).statusCode).toBe(200); // 100
    const refused = await attempt(u.email, u.password);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      message: 'Too many sign-in attempts from this network. Try again in 15 minutes.',
      code: 'NETWORK_THROTTLED',
    });
    const event = await queryOne(
      t.db,
      sql`SELECT metadata->>'reason' AS reason FROM security_events WHERE event_type = 'LOGIN_LOCKED' ORDER BY id DESC LIMIT 1`,
    );
    expect(event).toEqual({ reason: 'ip' });

    // Another address is not affected; this one is served again once the window has passed.
    expect((await attempt(u.email, u.password, t.app, '10.9.9.9')).statusCode).toBe(200);
    clock.advance(15 * MINUTE + 1000);
    expect((await attempt(u.email, u.password)).statusCode).toBe(200);
  });
});
