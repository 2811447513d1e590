import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { hashToken } from '../../context/session';
import { createStaffUser, signIn, type StaffUser } from '../../test/staff';
import { queryOne, queryRows } from '../../test/sql';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let doctor: StaffUser;

beforeAll(async () => {
  t = await createTestApp();
  await createStaffUser(t.db, { roleId: 1 }); // setup done: registration is open
  doctor = await createStaffUser(t.db, { roleId: 3, firstName: 'Tangeni', lastName: 'Shikongo', email: 'tangeni@health.gov.na' });
});
afterAll(async () => {
  await t?.close();
});

const login = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object, headers });
const register = (payload: unknown) => t.app.inject({ method: 'POST', url: '/api/auth/register', payload: payload as object });
const count = async (query: ReturnType<typeof sql>): Promise<number> => (await queryOne<{ n: number }>(t.db, query))!.n;
const userCount = () => count(sql`SELECT count(*)::int AS n FROM users`);
const eventCount = () => count(sql`SELECT count(*)::int AS n FROM security_events`);

describe('POST /api/auth/login', () => {
  it('signs in an active user: 200 with the user, a session cookie, last_login_at, user_sessions and the event', async () => {
    const res = await login({ email: 'Tangeni@Health.gov.na', password: doctor.password }, { 'user-agent': 'vitest' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Login successful');
    expect(body.user).toMatchObject({
      id: doctor.id,
      email: 'tangeni@health.gov.na',
      firstName: 'Tangeni',
      lastName: 'Shikongo',
      roleId: 3,
      role: { name: 'doctor', displayName: 'Doctor' },
      isActive: true,
      accountStatus: 'active',
      permissions: ['defaulters.read', 'patients.search', 'records.read', 'records.write'],
    });
    expect(Object.keys(body.user).sort()).toEqual(
      [
        'id',
        'email',
        'firstName',
        'lastName',
        'phoneNumber',
        'department',
        'facility',
        'roleId',
        'role',
        'isActive',
        'accountStatus',
        'profileImageUrl',
        'licenseNumber',
        'address',
        'lastLoginAt',
        'createdAt',
        'permissions',
        'pendingName', // a name change waiting for approval, null when none (issue 21 item 10)
      ].sort(),
    );
    expect(body.user).not.toHaveProperty('passwordHash');
    expect(new Date(body.user.lastLoginAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const token = res.cookies.find((c) => c.name === 'nhr_sid')!.value;
    const session = await queryOne(
      t.db,
      sql`SELECT user_id, ip_address, user_agent, is_active FROM user_sessions WHERE session_id = ${hashToken(token)}`,
    );
    expect(session).toEqual({ user_id: doctor.id, ip_address: '127.0.0.1', user_agent: 'vitest', is_active: true });
    const event = await queryOne(
      t.db,
      sql`SELECT user_id, subject, ip_address, severity FROM security_events WHERE event_type = 'LOGIN_SUCCESS' ORDER BY id DESC LIMIT 1`,
    );
    expect(event).toEqual({ user_id: doctor.id, subject: 'tangeni@health.gov.na', ip_address: '127.0.0.1', severity: 'low' });
  });

  it('answers unknown e-mail, wrong password, pending, suspended and inactive accounts with the same 401', async () => {
    const pending = await createStaffUser(t.db, { roleId: 4, active: false });
    const suspended = await createStaffUser(t.db, { roleId: 4 });
    await t.db.execute(sql`UPDATE users SET account_status = 'suspended' WHERE id = ${suspended.id}`);
    const inactive = await createStaffUser(t.db, { roleId: 4 });
    await t.db.execute(sql`UPDATE users SET is_active = false WHERE id = ${inactive.id}`);

    const attempts = [
      { email: 'nobody@health.gov.na', password: doctor.password },
      { email: doctor.email, password: 'wrong password' },
      { email: pending.email, password: pending.password },
      { email: suspended.email, password: suspended.password },
      { email: inactive.email, password: inactive.password },
    ];
    const before = await eventCount();
    for (const attempt of attempts) {
      const res = await login(attempt);
      expect(res.statusCode).toBe(401);
      expect(res.body).toBe('{"message":"Invalid credentials","code":"INVALID_CREDENTIALS"}');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const reasons = await queryRows<{ reason: string }>(
      t.db,
      sql`SELECT metadata->>'reason' AS reason FROM security_events WHERE event_type = 'LOGIN_FAILURE' ORDER BY id DESC LIMIT 5`,
    );
    expect(reasons.map((r) => r.reason).reverse()).toEqual([
      'unknown_user',
      'wrong_password',
      'account_pending',
      'account_suspended',
      'account_inactive',
    ]);
    expect(await eventCount()).toBe(before + attempts.length);
  });

  it.each([
    ['missing fields', {}],
    ['wrong types', { email: 42, password: true }],
    ['an invalid e-mail', { email: 'not-an-email', password: 'x' }],
    ['an empty password', { email: 'a@b.na', password: '' }],
    ['a 10,000 character password', { email: 'a@b.na', password: 'x'.repeat(10_000) }],
    ['an extra field', { email: 'a@b.na', password: 'x', remember: true }],
  ])('refuses %s with 400 and records no attempt', async (_name, payload) => {
    const before = await eventCount();
    const res = await login(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(await eventCount()).toBe(before);
  });

  it('uses the SPEC login messages as translation keys', async () => {
    const res = await login({ email: 'x', password: '' });
    const messages = Object.fromEntries(res.json().issues.map((i: { path: string; message: string }) => [i.path, i.message]));
    expect(messages).toEqual({ email: 'validation:emailInvalid', password: 'validation:passwordRequired' });
  });
});

describe('GET /api/auth/user', () => {
  it('answers 401 when signed out', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/user' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
  });

  it('returns the signed-in user', async () => {
    const cookie = await signIn(t.app, doctor.email, doctor.password);
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: doctor.id, role: { displayName: 'Doctor' }, phoneNumber: null });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

const registration = {
  firstName: 'Ndinelao',
  lastName: 'Amutenya',
  email: 'Ndinelao.Amutenya@health.gov.na',
  password: 'a long enough password',
  department: 'Paramedicine',
  facility: 'Oshakati State Hospital',
  phoneNumber: '+264 81 555 0101',
  roleId: 403,
};

describe('POST /api/auth/register', () => {
  it('creates a pending account (isActive false) and says to contact an administrator', async () => {
    const res = await register(registration);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Registration successful. Please contact an administrator for activation.' });
    const user = await queryOne(
      t.db,
      sql`SELECT first_name, email, role_id, is_active, account_status, department, facility, phone_number, password_hash, activated_at
          FROM users WHERE email = 'ndinelao.amutenya@health.gov.na'`,
    );
    expect(user).toMatchObject({
      first_name: 'Ndinelao',
      role_id: 403,
      is_active: false,
      account_status: 'pending',
      department: 'Paramedicine',
      facility: 'Oshakati State Hospital',
      phone_number: '+264 81 555 0101',
      activated_at: null,
    });
    expect(String(user!.password_hash)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const event = await queryOne(t.db, sql`SELECT event_type FROM security_events WHERE event_type = 'REGISTER'`);
    expect(event).toBeDefined();
  });

  it('leaves the new account unable to sign in until approved, with the same 401', async () => {
    const res = await login({ email: registration.email, password: registration.password });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Invalid credentials', code: 'INVALID_CREDENTIALS' });
  });

  it('answers a registered e-mail (any letter case) exactly as a new one, and queues an e-mail to its owner (issue 21 item 12)', async () => {
    const before = await userCount();
    const fresh = await register({ ...registration, email: 'someone.new@health.gov.na' });
    const taken = await register({ ...registration, email: registration.email.toUpperCase(), firstName: 'Impostor' });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.statusCode).toBe(201);
    expect(taken.body).toBe(fresh.body);
    expect(taken.headers['content-type']).toBe(fresh.headers['content-type']);
    expect(await userCount()).toBe(before + 1);
    const owner = await queryOne(t.db, sql`SELECT first_name FROM users WHERE email = 'ndinelao.amutenya@health.gov.na'`);
    expect(owner).toEqual({ first_name: 'Ndinelao' }); // the existing account is untouched
    const mail = await queryOne(t.db, sql`SELECT recipient, template, sent_at FROM mail_outbox ORDER BY id DESC LIMIT 1`);
    expect(mail).toEqual({ recipient: 'ndinelao.amutenya@health.gov.na', template: 'registration_attempt', sent_at: null });
    const mails = await queryOne<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM mail_outbox WHERE recipient = 'someone.new@health.gov.na'`,
    );
    expect(mails!.n).toBe(0);
    const event = await queryOne(t.db, sql`SELECT severity FROM security_events WHERE event_type = 'REGISTER_EXISTING_EMAIL'`);
    expect(event).toEqual({ severity: 'medium' });
  });

  it('accepts a registration without a phone number', async () => {
    const { phoneNumber: _p, ...rest } = registration;
    expect((await register({ ...rest, email: 'nophone@health.gov.na' })).statusCode).toBe(201);
    expect((await register({ ...rest, email: 'blankphone@health.gov.na', phoneNumber: '' })).statusCode).toBe(201);
  });

  it.each([
    ['missing fields', {}, ['firstName', 'lastName', 'email', 'password', 'department', 'facility', 'roleId']],
    ['wrong types', { ...registration, firstName: 7, roleId: '3' }, ['firstName', 'roleId']],
    ['the System Administrator role', { ...registration, roleId: 1 }, ['roleId']],
    ['an unknown role', { ...registration, roleId: 8 }, ['roleId']],
    ['a fractional role', { ...registration, roleId: 3.5 }, ['roleId']],
    ['a department not on the list', { ...registration, department: 'Cardiology' }, ['department']],
    ['a 10,000 character name', { ...registration, lastName: 'x'.repeat(10_000) }, ['lastName']],
    ['a 10,000 character facility', { ...registration, facility: 'x'.repeat(10_000) }, ['facility']],
    ['a 10,000 character phone number', { ...registration, phoneNumber: '1'.repeat(10_000) }, ['phoneNumber']],
    ['isActive and accountStatus', { ...registration, isActive: true, accountStatus: 'active' }, ['']],
    ['confirmPassword (the client drops it)', { ...registration, confirmPassword: registration.password }, ['']],
  ])('refuses %s with 400 and creates nothing', async (_name, payload, paths) => {
    const before = await userCount();
    const res = await register({ ...payload, ...('email' in payload ? { email: 'refused@health.gov.na' } : {}) });
    expect(res.statusCode).toBe(400);
    const issuePaths = res.json().issues.map((i: { path: string }) => i.path);
    for (const p of paths) expect(issuePaths).toContain(p);
    expect(await userCount()).toBe(before);
  });

  it('uses the SPEC registration messages as translation keys', async () => {
    const res = await register({ firstName: 'A', lastName: 'B', email: 'x', password: 'short', department: '', facility: ' ' });
    const messages = Object.fromEntries(res.json().issues.map((i: { path: string; message: string }) => [i.path, i.message]));
    expect(messages).toEqual({
      firstName: 'validation:firstNameMin',
      lastName: 'validation:lastNameMin',
      email: 'validation:emailInvalid',
      password: 'validation:passwordMin',
      department: 'validation:departmentSelect',
      facility: 'validation:facilityRequired',
      roleId: 'validation:roleSelect',
    });
  });
});

describe('GET /api/roles', () => {
  it('lists the registration roles in SPEC §6 order, without the System Administrator, to anyone', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/roles' });
    expect(res.statusCode).toBe(200);
    const roles = res.json();
    expect(roles.map((r: { id: number }) => r.id)).toEqual([2, 3, 4, 5, 6, 7, 403, 404, 405]);
    expect(roles.map((r: { displayName: string }) => r.displayName)).toEqual([
      'Administrator',
      'Doctor',
      'Nurse',
      'Receptionist',
      'Auditor',
      'Health Information Officer',
      'Paramedic',
      'Intermediate Life Support',
      'Basic Life Support',
    ]);
    expect(Object.keys(roles[0]).sort()).toEqual(['description', 'displayName', 'id', 'name']);
  });
});

describe('POST /api/auth/logout', () => {
  it('records the sign-out of a session', async () => {
    const cookie = await signIn(t.app, doctor.email, doctor.password);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const event = await queryOne(t.db, sql`SELECT user_id FROM security_events WHERE event_type = 'LOGOUT' ORDER BY id DESC LIMIT 1`);
    expect(event).toEqual({ user_id: doctor.id });
  });

  it('answers 200 and clears the cookie when signed out, recording nothing', async () => {
    const before = await eventCount();
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/^nhr_sid=;/);
    expect(await eventCount()).toBe(before);
  });
});
