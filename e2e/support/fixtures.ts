// Journey fixtures through the real API: the first administrator, and signing in from a page.
import type { Page } from 'playwright-core';

export const ADMIN = {
  firstName: 'Ndapewa',
  lastName: 'Nghipondoka',
  email: 'admin@health.gov.na',
  password: 'correct horse battery',
  facility: 'Windhoek Central Hospital',
  department: 'administration',
};

export async function createFirstAdmin(baseUrl: string): Promise<void> {
  const res = await fetch(`${baseUrl}/api/setup/admin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...ADMIN, confirmPassword: ADMIN.password }),
  });
  if (res.status !== 201) throw new Error(`setup failed: ${res.status} ${await res.text()}`);
}

/** Signs in through the login page and waits for the dashboard. */
export async function signInThroughPage(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.getByRole('button', { name: /^User menu for/ }).waitFor();
}

export async function signOutThroughPage(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^User menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.waitForURL('**/login');
  await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
}

/** A signed-in API session for journeys: the Cookie header of a fresh login. */
export async function apiSignIn(baseUrl: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.get('set-cookie') ?? '';
  return cookie.split(';')[0] ?? '';
}

/** Registers a staff user through the API and approves them as the administrator; returns their credentials. */
export async function createApprovedStaff(
  baseUrl: string,
  adminCookie: string,
  person: { firstName: string; lastName: string; email: string; password: string; roleId: number; department?: string },
): Promise<void> {
  const body = { department: 'Emergency', facility: 'Windhoek Central Hospital', phoneNumber: '', ...person };
  const reg = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${await reg.text()}`);
  const pending = (await (await fetch(`${baseUrl}/api/admin/pending-users`, { headers: { cookie: adminCookie } })).json()) as {
    id: string;
    email: string;
  }[];
  const user = pending.find((u) => u.email === person.email.toLowerCase());
  if (!user) throw new Error(`no pending registration for ${person.email}`);
  const approve = await fetch(`${baseUrl}/api/admin/users/${user.id}/approve`, { method: 'POST', headers: { cookie: adminCookie } });
  if (approve.status !== 200) throw new Error(`approve failed: ${approve.status} ${await approve.text()}`);
}

/** POSTs JSON with a session cookie; throws unless the status is the expected one. */
export async function apiPost<T>(baseUrl: string, cookie: string, path: string, body: unknown, expected = 200): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
  });
  if (res.status !== expected) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
