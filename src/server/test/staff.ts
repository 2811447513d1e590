// Staff fixtures for API tests: create a user of any role, sign in through the real login route, get the Cookie
// header to send. Every sign-in counts toward the per-IP limit (100 per 15 minutes per test database), so sign in
// once per role in beforeAll rather than once per test.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { hashPassword } from '../security/password';
import { createUser } from '../modules/users/users.service';
import type { TestApp } from './test-app';

export const DEFAULT_PASSWORD = 'correct horse battery staple';

export interface StaffUserOptions {
  roleId: number;
  email?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  facility?: string;
  department?: string;
  /** Approved and active (default), or a pending registration when false. */
  active?: boolean;
}

export interface StaffUser {
  id: string;
  email: string;
  password: string;
}

// argon2id takes tens of milliseconds; the same password gets the same (valid) hash within a test run.
const hashes = new Map<string, Promise<string>>();
const hashOnce = (password: string): Promise<string> => {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
};

export async function createStaffUser(db: Db, options: StaffUserOptions): Promise<StaffUser> {
  const password = options.password ?? DEFAULT_PASSWORD;
  const email = (options.email ?? `staff-${options.roleId}-${randomBytes(4).toString('hex')}@health.test.na`).toLowerCase();
  const active = options.active ?? true;
  const id = await createUser(db, {
    firstName: options.firstName ?? 'Test',
    lastName: options.lastName ?? `Role${options.roleId}`,
    email,
    passwordHash: await hashOnce(password),
    roleId: options.roleId,
    facility: options.facility ?? 'Windhoek Central Hospital',
    department: options.department ?? 'Emergency',
    phoneNumber: null,
    isActive: active,
    accountStatus: active ? 'active' : 'pending',
    activatedAt: active ? new Date() : null,
  });
  if (!id) throw new Error(`createStaffUser: ${email} already exists`);
  return { id, email, password };
}

/** Signs in through POST /api/auth/login; returns the Cookie header value (`nhr_sid=...`). Throws unless 200. */
export async function signIn(app: FastifyInstance, email: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`signIn(${email}) answered ${res.statusCode}: ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'nhr_sid');
  if (!cookie) throw new Error('signIn: no session cookie');
  return `nhr_sid=${cookie.value}`;
}

/** A new active user of this role, signed in. */
export async function signInAs(t: TestApp, roleId: number): Promise<{ cookie: string; user: StaffUser }> {
  const user = await createStaffUser(t.db, { roleId });
  return { cookie: await signIn(t.app, user.email, user.password), user };
}
