// Administration: Manage Users (SPEC §2, §7; DESIGN.md §5). Who may call these is in the permission matrix test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createStaffUser, signIn, signInAs, type StaffUser } from '../../test/staff';
import { queryOne } from '../../test/sql';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let admin: { cookie: string; user: StaffUser };

beforeAll(async () => {
  t = await createTestApp();
  await createStaffUser(t.db, { roleId: 1 }); // setup done: registration is open
  admin = await signInAs(t, 2);
});
afterAll(async () => {
  await t?.close();
});

const as = (cookie: string) => ({
  get: (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } }),
  approve: (id: string) => t.app.inject({ method: 'POST', url: `/api/admin/users/${id}/approve`, headers: { cookie } }),
  reject: (id: string) => t.app.inject({ method: 'DELETE', url: `/api/admin/users/${id}/reject`, headers: { cookie } }),
});
const userRow = (id: string) =>
  queryOne<{ is_active: boolean; account_status: string; activated_by: string | null; activated_at: string | null }>(
    t.db,
    sql`SELECT is_active, account_status, activated_by, activated_at FROM users WHERE id = ${id}`,
  );

async function registerPending(email: string, roleId = 3): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      firstName: 'Pending',
      lastName: 'Person',
      email,
      password: 'a long enough password',
      department: 'Nursing',
      facility: 'Rundu State Hospital',
      roleId,
    },
  });
  expect(res.statusCode).toBe(201);
  return (await queryOne<{ id: string }>(t.db, sql`SELECT id FROM users WHERE email = ${email}`))!.id;
}

describe('GET /api/admin/pending-users', () => {
  it('lists pending registrations only, oldest first, in the SPEC §3 shape', async () => {
    const first = await registerPending('first.pending@health.gov.na', 4);
    const second = await registerPending('second.pending@health.gov.na', 405);
    const res = await as(admin.cookie).get('/api/admin/pending-users');
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((u: { id: string }) => u.id)).toEqual([first, second]);
    expect(list[0]).toEqual({
      id: first,
      firstName: 'Pending',
      lastName: 'Person',
      email: 'first.pending@health.gov.na',
      department: 'Nursing',
      facility: 'Rundu State Hospital',
      role: { name: 'nurse', displayName: 'Nurse' },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(list[1].role).toEqual({ name: 'basic_life_support', displayName: 'Basic Life Support' });
  });
});

describe('POST /api/admin/users/{id}/approve', () => {
  it('activates a pending user: isActive, accountStatus active, activatedAt, activatedBy; the user can then sign in', async () => {
    const id = await registerPending('approve.me@health.gov.na');
    const res = await as(admin.cookie).approve(id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'User approved', user: { id, email: 'approve.me@health.gov.na' } });
    const row = await userRow(id);
    expect(row).toMatchObject({ is_active: true, account_status: 'active', activated_by: admin.user.id });
    expect(row!.activated_at).not.toBeNull();
    const event = await queryOne(t.db, sql`SELECT user_id, metadata FROM security_events WHERE event_type = 'USER_APPROVED'`);
    expect(event).toEqual({ user_id: id, metadata: { approvedBy: admin.user.id } });
    await signIn(t.app, 'approve.me@health.gov.na', 'a long enough password');
    const pending = (await as(admin.cookie).get('/api/admin/pending-users')).json();
    expect(pending.map((u: { id: string }) => u.id)).not.toContain(id);
  });

  it('answers 409 for a user who is not pending, and changes nothing', async () => {
    const active = await createStaffUser(t.db, { roleId: 4 });
    const before = await userRow(active.id);
    const res = await as(admin.cookie).approve(active.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'This user is not awaiting approval', code: 'USER_NOT_PENDING' });
    expect(await userRow(active.id)).toEqual(before);
  });

  it('answers 404 for an unknown user', async () => {
    const res = await as(admin.cookie).approve('no-such-user');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('USER_NOT_FOUND');
  });

  it('refuses an approver approving themselves with 403', async () => {
    const res = await as(admin.cookie).approve(admin.user.id);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'You cannot approve your own account', code: 'OWN_ACCOUNT_DECISION' });
  });

  it('refuses a pending account approving itself: it cannot even sign in', async () => {
    // A pending administrator registration holds users.approve through its role, but has no session to use it.
    await registerPending('pending.admin@health.gov.na', 2);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'pending.admin@health.gov.na', password: 'a long enough password' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses over-long ids: 400 past 64 characters, 414 past the router limit', async () => {
    expect((await as(admin.cookie).approve('x'.repeat(65))).statusCode).toBe(400);
    expect((await as(admin.cookie).approve('x'.repeat(10_000))).statusCode).toBe(414);
  });
});

describe('DELETE /api/admin/users/{id}/reject', () => {
  it('deletes a pending registration; the e-mail then signs in like an unknown one', async () => {
    const id = await registerPending('reject.me@health.gov.na');
    const res = await as(admin.cookie).reject(id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'User rejected' });
    expect(await userRow(id)).toBeUndefined();
    const event = await queryOne(t.db, sql`SELECT user_id FROM security_events WHERE event_type = 'USER_REJECTED'`);
    expect(event).toEqual({ user_id: id });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'reject.me@health.gov.na', password: 'a long enough password' },
    });
    expect(login.body).toBe('{"message":"Invalid credentials","code":"INVALID_CREDENTIALS"}');
    expect((await as(admin.cookie).reject(id)).statusCode).toBe(404);
  });

  it('answers 409 for an active user and deletes nothing', async () => {
    const active = await createStaffUser(t.db, { roleId: 5 });
    const res = await as(admin.cookie).reject(active.id);
    expect(res.statusCode).toBe(409);
    expect(await userRow(active.id)).toBeDefined();
  });
});

describe('GET /api/admin/active-users and /api/admin/user-stats', () => {
  it('lists active users only, by name, with paging', async () => {
    const res = await as(admin.cookie).get('/api/admin/active-users');
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.length).toBeGreaterThanOrEqual(3);
    for (const u of list) expect(u).toHaveProperty('lastLoginAt');
    const emails = list.map((u: { email: string }) => u.email);
    expect(emails).toContain(admin.user.email);
    expect(emails).not.toContain('first.pending@health.gov.na');
    const names = list.map((u: { lastName: string; firstName: string }) => `${u.lastName}\u0000${u.firstName}`);
    expect(names).toEqual([...names].sort());
    const page = (await as(admin.cookie).get('/api/admin/active-users?limit=1&offset=1')).json();
    expect(page).toEqual([list[1]]);
  });

  it.each(['limit=0', 'limit=abc', 'limit=5000', 'offset=-1', 'other=1'])('refuses ?%s with 400', async (query) => {
    expect((await as(admin.cookie).get(`/api/admin/active-users?${query}`)).statusCode).toBe(400);
  });

  it('counts users by status and by role', async () => {
    const res = await as(admin.cookie).get('/api/admin/user-stats');
    expect(res.statusCode).toBe(200);
    const stats = res.json();
    const counts = await queryOne<{ total: number; active: number; pending: number; nurses: number }>(
      t.db,
      sql`SELECT count(*)::int AS total,
                 (count(*) FILTER (WHERE account_status = 'active'))::int AS active,
                 (count(*) FILTER (WHERE account_status = 'pending'))::int AS pending,
                 (count(*) FILTER (WHERE role_id = 4))::int AS nurses
          FROM users`,
    );
    expect(stats.total).toBe(counts!.total);
    expect(stats.byStatus).toEqual({ active: counts!.active, pending: counts!.pending });
    expect(stats.byRole.map((r: { roleId: number }) => r.roleId)).toEqual([1, 2, 3, 4, 5, 6, 7, 403, 404, 405]);
    expect(stats.byRole.find((r: { roleId: number }) => r.roleId === 4)).toMatchObject({
      displayName: 'Nurse',
      total: counts!.nurses,
    });
    expect(stats.byRole.find((r: { roleId: number }) => r.roleId === 1)).toMatchObject({ total: 1, active: 1 }); // the set-up administrator
  });
});
