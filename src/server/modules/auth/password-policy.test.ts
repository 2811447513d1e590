// Issue 21 item 14: common and breached staff passwords, and passwords with the user's name or e-mail, are refused at
// registration and first-time setup with a clear 400 and nothing created; SPEC's length message is unchanged.
import { existsSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commonPasswords } from '../../security/password-policy';
import { queryOne } from '../../test/sql';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const userCount = async (): Promise<number> => (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM users`))!.n;

const admin = {
  firstName: 'Ndapewa',
  lastName: 'Nghipondoka',
  email: 'ndapewa.admin@health.gov.na',
  facility: 'Windhoek Central Hospital',
  department: 'administration',
};
const setup = (password: string) =>
  t.app.inject({ method: 'POST', url: '/api/setup/admin', payload: { ...admin, password, confirmPassword: password } });

const registration = {
  firstName: 'Tangeni',
  lastName: 'Amutenya',
  email: 'tangeni.amutenya@health.gov.na',
  department: 'Paramedicine',
  facility: 'Oshakati State Hospital',
  roleId: 403,
};
const register = (password: string, email = registration.email) =>
  t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { ...registration, email, password } });

describe('the shipped list', () => {
  it('holds at least the 10,000 most common passwords, with its source and licence beside it', () => {
    const list = commonPasswords();
    expect(list.size).toBeGreaterThanOrEqual(10_000);
    for (const p of ['password', '12345678', 'qwertyuiop', 'iloveyou', 'password1']) expect(list.has(p)).toBe(true);
    const dir = new URL('../../security/common-passwords/', import.meta.url);
    const source = readFileSync(new URL('SOURCE.md', dir), 'utf8');
    expect(source).toMatch(/@zxcvbn-ts\/language-common/);
    expect(source).toMatch(/4\.1\.3/);
    expect(source).toMatch(/MIT/);
    expect(existsSync(new URL('LICENSE.txt', dir))).toBe(true);
  });
});

describe('first-time setup', () => {
  it.each([
    ['password (on the list)', 'password', 'PASSWORD_TOO_COMMON', 'validation:passwordCommon'],
    ['PassWord1 (on the list in any letter case)', 'PassWord1', 'PASSWORD_TOO_COMMON', 'validation:passwordCommon'],
    ['the first name in it', 'ndapewa-rules-1', 'PASSWORD_PERSONAL', 'validation:passwordPersonal'],
    ['the e-mail in it', 'ndapewa.admin@health.gov.na', 'PASSWORD_PERSONAL', 'validation:passwordPersonal'],
  ])('refuses %s with 400 and creates nobody', async (_name, password, code, message) => {
    const res = await setup(password);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code, issues: [{ path: 'password', message }] });
    expect(await userCount()).toBe(0);
  });

  it('keeps SPEC’s length message', async () => {
    const res = await setup('short');
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toContainEqual({ path: 'password', message: 'validation:passwordMin' });
  });

  it('accepts a password that is neither common nor personal', async () => {
    expect((await setup('ledger of the north wind')).statusCode).toBe(201);
  });
});

describe('registration', () => {
  it.each([
    ['password', 'password', 'PASSWORD_TOO_COMMON'],
    ['12345678', '12345678', 'PASSWORD_TOO_COMMON'],
    ['iloveyou', 'iloveyou', 'PASSWORD_TOO_COMMON'],
    ['" Password "', ' Password ', 'PASSWORD_TOO_COMMON'],
    ['the last name in any case', 'AMUTENYA2026', 'PASSWORD_PERSONAL'],
    ['the first name inside other words', 'my-tangeni-pass', 'PASSWORD_PERSONAL'],
    ['the e-mail’s local part', 'xx-tangeni.amutenya-xx', 'PASSWORD_PERSONAL'],
  ])('refuses %s with 400 and creates nothing', async (_name, password, code) => {
    const before = await userCount();
    const res = await register(password);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code, issues: [{ path: 'password' }] });
    expect(await userCount()).toBe(before);
  });

  it('accepts a password that is neither', async () => {
    const before = await userCount();
    expect((await register('stethoscope-and-ambulance')).statusCode).toBe(201);
    expect(await userCount()).toBe(before + 1);
  });
});
