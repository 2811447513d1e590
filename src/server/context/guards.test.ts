import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { testClock } from '../test/clock';
import { createStaffUser, signIn, signInAs } from '../test/staff';
import { createTestApp, type TestApp } from '../test/test-app';
import { patientActor, requirePatient, requireStaff, staffActor } from './guards';
import { createSession, hashToken } from './session';

const clock = testClock(new Date('2026-03-02T08:00:00Z'));
let t: TestApp;
/** The real app plus three probe routes, on the same database. */
let app: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  app = await buildApp({ db: t.db, config: t.config });
  app.get('/api/probe/staff', { onRequest: requireStaff() }, async (request) => {
    const actor = staffActor(request);
    return { userId: actor.userId, permissions: [...actor.permissions].sort(), meta: request.meta };
  });
  app.get('/api/probe/audit', { onRequest: requireStaff('audit.read') }, async () => ({ ok: true }));
  app.get('/api/probe/patient', { onRequest: requirePatient() }, async (request) => ({ patientId: patientActor(request).patientId }));
  // preHandler works too, after validation.
  app.get('/api/probe/pre-handler', { preHandler: requireStaff('users.approve') }, async () => ({ ok: true }));
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

const get = (url: string, cookie?: string) => app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const patientCookie = async (patientId: number): Promise<string> =>
  `nhr_sid=${(await createSession(t.db, { kind: 'patient', patientId }, clock.now())).token}`;

describe('requireStaff', () => {
  it('answers 401 UNAUTHENTICATED when signed out', async () => {
    const res = await get('/api/probe/staff');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
  });

  it('answers 401 to a patient session', async () => {
    const cookie = await patientCookie(7);
    expect((await get('/api/probe/staff', cookie)).statusCode).toBe(401);
    expect((await get('/api/probe/audit', cookie)).statusCode).toBe(401);
  });

  it('answers 403 FORBIDDEN without the permission', async () => {
    const { cookie } = await signInAs(t, 3);
    const res = await get('/api/probe/audit', cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Insufficient permissions', code: 'PERMISSION_REQUIRED' });
    expect((await get('/api/probe/pre-handler', cookie)).statusCode).toBe(403);
  });

  it('lets the user through with the actor and the request meta', async () => {
    const { cookie, user } = await signInAs(t, 6);
    const res = await app.inject({
      method: 'GET',
      url: '/api/probe/staff',
      headers: { cookie, 'user-agent': 'probe/1.0' },
      remoteAddress: '10.1.2.3',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      userId: user.id,
      permissions: ['audit.read', 'audit.review', 'reports.generate', 'reports.read'],
      meta: { ip: '10.1.2.3', userAgent: 'probe/1.0', sessionHash: hashToken(cookie.slice('nhr_sid='.length)) },
    });
    expect((await get('/api/probe/audit', cookie)).statusCode).toBe(200);
  });
});

describe('requirePatient', () => {
  it('lets a patient session through with its patient id', async () => {
    const res = await get('/api/probe/patient', await patientCookie(42));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ patientId: 42 });
  });

  it('answers 401 when signed out or signed in as staff', async () => {
    expect((await get('/api/probe/patient')).statusCode).toBe(401);
    const { cookie } = await signInAs(t, 2);
    expect((await get('/api/probe/patient', cookie)).statusCode).toBe(401);
  });
});

describe('permissions are read from the database on every request', () => {
  const grant = (userId: string, permission: string, isGranted: boolean) =>
    t.db.execute(sql`
      INSERT INTO user_permissions (user_id, permission_id, is_granted)
      SELECT ${userId}, id, ${isGranted} FROM permissions WHERE name = ${permission}`);

  it('a per-user grant adds a permission at once', async () => {
    const { cookie, user } = await signInAs(t, 3);
    expect((await get('/api/probe/audit', cookie)).statusCode).toBe(403);
    await grant(user.id, 'audit.read', true);
    expect((await get('/api/probe/audit', cookie)).statusCode).toBe(200);
  });

  it('a per-user revocation removes a role permission at once, and wins over a grant', async () => {
    const { cookie, user } = await signInAs(t, 6);
    await grant(user.id, 'audit.read', false);
    expect((await get('/api/probe/audit', cookie)).statusCode).toBe(403);
    await grant(user.id, 'audit.read', true);
    expect((await get('/api/probe/audit', cookie)).statusCode).toBe(403);
  });

  it('a role change takes effect on the next request', async () => {
    const nurse = await createStaffUser(t.db, { roleId: 4 });
    const cookie = await signIn(app, nurse.email, nurse.password);
    expect((await get('/api/probe/audit', cookie)).statusCode).toBe(403);
    await t.db.execute(sql`UPDATE users SET role_id = 6 WHERE id = ${nurse.id}`);
    expect((await get('/api/probe/audit', cookie)).statusCode).toBe(200);
    await t.db.execute(sql`UPDATE users SET role_id = 4 WHERE id = ${nurse.id}`);
    expect((await get('/api/probe/audit', cookie)).statusCode).toBe(403);
  });

  it('a deactivated role grants nothing', async () => {
    const { cookie } = await signInAs(t, 6);
    await t.db.execute(sql`UPDATE roles SET is_active = false WHERE id = 6`);
    try {
      expect((await get('/api/probe/audit', cookie)).statusCode).toBe(403);
      expect((await get('/api/probe/staff', cookie)).json().permissions).toEqual([]);
    } finally {
      await t.db.execute(sql`UPDATE roles SET is_active = true WHERE id = 6`);
    }
  });
});
