// My Profile: PATCH /api/users/{id} (SPEC §5, §7; DESIGN.md §4: own profile only, listed fields only).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createStaffUser, signIn, type StaffUser } from '../../test/staff';
import { queryOne } from '../../test/sql';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let nurse: StaffUser;
let other: StaffUser;
let cookie: string;

const valid = {
  firstName: 'Selma',
  lastName: 'Hamutenya',
  email: 'Selma.Hamutenya@health.gov.na',
  phoneNumber: '+264 61 203 9111',
  department: 'Pediatrics',
  facility: 'Katutura State Hospital',
};

beforeAll(async () => {
  t = await createTestApp();
  nurse = await createStaffUser(t.db, { roleId: 4, email: 'nurse.profile@health.gov.na', firstName: 'Selma', lastName: 'Hamutenya' });
  other = await createStaffUser(t.db, { roleId: 3, email: 'taken@health.gov.na' });
  cookie = await signIn(t.app, nurse.email, nurse.password);
});
afterAll(async () => {
  await t?.close();
});

const patch = (id: string, payload: unknown, withCookie = cookie) =>
  t.app.inject({ method: 'PATCH', url: `/api/users/${id}`, payload: payload as object, headers: { cookie: withCookie } });
const snapshot = (id: string) => queryOne(t.db, sql`SELECT * FROM users WHERE id = ${id}`);

describe('PATCH /api/users/{id}', () => {
  let before: Record<string, unknown> | undefined;
  beforeEach(async () => {
    before = await snapshot(nurse.id);
  });

  it('updates the listed fields of the signed-in user and returns the user', async () => {
    const res = await patch(nurse.id, valid);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: nurse.id,
      firstName: 'Selma',
      lastName: 'Hamutenya',
      email: 'selma.hamutenya@health.gov.na',
      phoneNumber: '+264 61 203 9111',
      department: 'Pediatrics',
      facility: 'Katutura State Hospital',
      roleId: 4,
      role: { name: 'nurse', displayName: 'Nurse' },
      permissions: ['defaulters.read', 'patients.search', 'records.read', 'records.write'],
    });
    const row = await snapshot(nurse.id);
    expect(row).toMatchObject({ first_name: 'Selma', email: 'selma.hamutenya@health.gov.na', role_id: 4, is_active: true });
    expect(row!.password_hash).toBe(before!.password_hash);
    const event = await queryOne(t.db, sql`SELECT user_id FROM security_events WHERE event_type = 'PROFILE_UPDATED'`);
    expect(event).toEqual({ user_id: nurse.id });
    // The new e-mail signs in; the session keeps working.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(200);
  });

  it('keeps the own e-mail, and treats a blank or missing phone number as none', async () => {
    const { phoneNumber: _p, ...noPhone } = valid;
    const res = await patch(nurse.id, noPhone);
    expect(res.statusCode).toBe(200);
    expect(res.json().phoneNumber).toBeNull();
    expect((await patch(nurse.id, { ...valid, phoneNumber: '' })).json().phoneNumber).toBeNull();
  });

  it("refuses another user's id with 403 and changes nothing, whatever the body", async () => {
    const otherBefore = await snapshot(other.id);
    for (const body of [{ ...valid, email: 'hijack@health.gov.na' }, { roleId: 1 }, 'not json at all']) {
      const res = await patch(other.id, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'You can only edit your own profile', code: 'OWN_PROFILE_ONLY' });
    }
    expect(await snapshot(other.id)).toEqual(otherBefore);
  });

  it('answers 401 when signed out', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: `/api/users/${nurse.id}`, payload: valid });
    expect(res.statusCode).toBe(401);
    expect(await snapshot(nurse.id)).toEqual(before);
  });

  it('answers 409 when the e-mail belongs to another user, in any letter case', async () => {
    const res = await patch(nurse.id, { ...valid, email: 'TAKEN@health.gov.na' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('EMAIL_IN_USE');
    expect(await snapshot(nurse.id)).toEqual(before);
  });

  it.each([
    ['roleId', { ...valid, roleId: 1 }],
    ['isActive', { ...valid, isActive: false }],
    ['accountStatus', { ...valid, accountStatus: 'suspended' }],
    ['passwordHash', { ...valid, passwordHash: 'x' }],
    ['id', { ...valid, id: 'another-id' }],
    ['activatedBy', { ...valid, activatedBy: 'me' }],
  ])('refuses an extra field (%s) with 400 and changes nothing', async (field, payload) => {
    const res = await patch(nurse.id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(res.json().message).toBe('Invalid input');
    expect(JSON.stringify(res.json().issues)).toContain(field);
    expect(await snapshot(nurse.id)).toEqual(before);
  });

  it.each([
    ['missing fields', {}, ['firstName', 'lastName', 'email', 'department', 'facility']],
    ['wrong types', { ...valid, firstName: 1, facility: null, phoneNumber: 5 }, ['firstName', 'facility', 'phoneNumber']],
    ['blank fields', { ...valid, lastName: '  ', department: '' }, ['lastName', 'department']],
    ['a 10,000 character first name', { ...valid, firstName: 'x'.repeat(10_000) }, ['firstName']],
    ['a 10,000 character department', { ...valid, department: 'x'.repeat(10_000) }, ['department']],
    ['a 10,000 character phone number', { ...valid, phoneNumber: '1'.repeat(10_000) }, ['phoneNumber']],
    ['a 10,000 character e-mail', { ...valid, email: `${'x'.repeat(10_000)}@health.gov.na` }, ['email']],
    ['an invalid e-mail', { ...valid, email: 'nope' }, ['email']],
  ])('refuses %s with 400 naming the fields, and changes nothing', async (_name, payload, paths) => {
    const res = await patch(nurse.id, payload);
    expect(res.statusCode).toBe(400);
    const issuePaths = res.json().issues.map((i: { path: string }) => i.path);
    for (const p of paths) expect(issuePaths).toContain(p);
    expect(await snapshot(nurse.id)).toEqual(before);
  });

  it('uses the SPEC profile messages as translation keys', async () => {
    const res = await patch(nurse.id, { firstName: '', lastName: '', email: 'x', department: '', facility: '' });
    const messages = Object.fromEntries(res.json().issues.map((i: { path: string; message: string }) => [i.path, i.message]));
    expect(messages).toEqual({
      firstName: 'validation:firstNameRequired',
      lastName: 'validation:lastNameRequired',
      email: 'validation:emailInvalidShort',
      department: 'validation:departmentRequired',
      facility: 'validation:facilityRequired',
    });
  });
});
