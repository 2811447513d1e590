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
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('button', { name: /^User menu for/ }).waitFor();
}

export async function signOutThroughPage(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^User menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.waitForURL('**/login');
  await page.getByRole('button', { name: 'Sign In' }).waitFor();
}
