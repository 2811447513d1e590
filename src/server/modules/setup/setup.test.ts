import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createStaffUser } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

const valid = {
  firstName: 'Ndapewa',
  lastName: 'Nghipondoka',
  email: 'Admin@Health.gov.na',
  password: 'correct horse battery',
  confirmPassword: 'correct horse battery',
  facility: 'Windhoek Central Hospital',
  department: 'administration',
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function userCount(): Promise<number> {
  const rows = await t.db.execute(sql`SELECT count(*)::int AS n FROM users`);
  return (rows as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

const post = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/setup/admin', payload: payload as object, headers });

const registration = {
  firstName: 'Early',
  lastName: 'Bird',
  email: 'early.bird@health.gov.na',
  password: 'a long enough password',
  department: 'Nursing',
  facility: 'Rundu State Hospital',
  roleId: 4,
};
const register = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/register', payload });

describe('first-time setup', () => {
  it('keeps registration closed until setup is done: 403 SETUP_REQUIRED and nothing created', async () => {
    const res = await register(registration);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('SETUP_REQUIRED');
    expect(await userCount()).toBe(0);
  });

  it('reports that setup is needed while no user exists', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/setup/status' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ needsSetup: true });
  });

  it.each([
    ['missing fields', {}, ['firstName', 'lastName', 'email', 'password', 'facility', 'department']],
    ['wrong types', { ...valid, firstName: 42, department: ['x'] }, ['firstName', 'department']],
    ['an unknown field', { ...valid, roleId: 2 }, ['']],
    ['an invalid email', { ...valid, email: 'not-an-email' }, ['email']],
    ['a short password', { ...valid, password: 'short', confirmPassword: 'short' }, ['password']],
    ['mismatched passwords', { ...valid, confirmPassword: 'something else' }, ['confirmPassword']],
    ['a blank department', { ...valid, department: '   ' }, ['department']],
    ['a 10,000 character name', { ...valid, firstName: 'a'.repeat(10_000) }, ['firstName']],
  ])('refuses %s with a 400 naming the fields, and creates nothing', async (_name, payload, paths) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    for (const p of paths) expect(body.issues.map((i: { path: string }) => i.path)).toContain(p);
    expect(await userCount()).toBe(0);
  });

  it('uses the SPEC messages as translation keys', async () => {
    const res = await post({ ...valid, email: 'x', department: '' });
    const messages = Object.fromEntries(res.json().issues.map((i: { path: string; message: string }) => [i.path, i.message]));
    expect(messages).toMatchObject({ email: 'validation:emailInvalid', department: 'validation:departmentRequired' });
  });

  it('refuses a body over 100 KB with 413', async () => {
    const res = await post({ ...valid, description: 'x'.repeat(1024 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
    expect(await userCount()).toBe(0);
  });

  it('refuses a body that is not JSON with 415, and broken JSON with 400', async () => {
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/setup/admin',
      payload: 'firstName=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(415);
    const plain = await t.app.inject({ method: 'POST', url: '/api/setup/admin', payload: '{}', headers: { 'content-type': 'text/plain' } });
    expect(plain.statusCode).toBe(415);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/setup/admin',
      payload: '{"a":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
    expect(await userCount()).toBe(0);
  });

  it('refuses a cross-site request', async () => {
    const res = await post(valid, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('CROSS_ORIGIN');
    expect(await userCount()).toBe(0);
  });

  it('creates exactly one administrator when two setups race', async () => {
    const [a, b] = await Promise.all([post(valid), post({ ...valid, email: 'second@health.gov.na' })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 403]);
    expect(await userCount()).toBe(1);
    const rows = await t.db.execute(sql`SELECT role_id, is_active, account_status, password_hash FROM users`);
    const user = (rows as unknown as { rows: Record<string, unknown>[] }).rows[0]!;
    expect(user).toMatchObject({ role_id: 1, is_active: true, account_status: 'active' });
    expect(String(user.password_hash)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('then reports setup done and refuses a second administrator with 403', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/setup/status' })).json()).toEqual({ needsSetup: false });
    const res = await post({ ...valid, email: 'third@health.gov.na' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('SETUP_ALREADY_DONE');
    expect(await userCount()).toBe(1);
  });

  it('then opens registration', async () => {
    expect((await register(registration)).statusCode).toBe(201);
    expect(await userCount()).toBe(2);
  });
});

describe('setup on a database that has accounts but no active administrator', () => {
  let u: TestApp;
  beforeAll(async () => {
    u = await createTestApp();
  });
  afterAll(async () => {
    await u?.close();
  });

  it('is not blocked by pending registrations or by staff of other roles', async () => {
    // A pending registration (e.g. made before registration was closed) and an inactive administrator.
    await createStaffUser(u.db, { roleId: 4, active: false, email: 'pending.nurse@health.gov.na' });
    await createStaffUser(u.db, { roleId: 1, active: false, email: 'old.admin@health.gov.na' });
    expect((await u.app.inject({ method: 'GET', url: '/api/setup/status' })).json()).toEqual({ needsSetup: true });
    const res = await u.app.inject({ method: 'POST', url: '/api/setup/admin', payload: valid });
    expect(res.statusCode).toBe(201);
    expect((await u.app.inject({ method: 'GET', url: '/api/setup/status' })).json()).toEqual({ needsSetup: false });
  });

  it("answers 409 when the administrator's e-mail belongs to another account", async () => {
    const v = await createTestApp();
    try {
      await createStaffUser(v.db, { roleId: 4, active: false, email: 'taken@health.gov.na' });
      const res = await v.app.inject({ method: 'POST', url: '/api/setup/admin', payload: { ...valid, email: 'Taken@health.gov.na' } });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('EMAIL_IN_USE');
    } finally {
      await v.close();
    }
  });
});
