// Journey: a doctor registers, an administrator approves, the doctor signs in and edits their profile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, screenshot, watchConsole } from './support/browser';
import { ADMIN, createFirstAdmin, signInThroughPage, signOutThroughPage } from './support/fixtures';
import { startApp, type RunningApp } from './support/server';

const run = browserAvailable();
const DOCTOR = { firstName: 'Tangeni', lastName: 'Amutenya', email: 'tangeni.amutenya@health.gov.na', password: 'stethoscope-42' };

describe.skipIf(!run)('staff identity journey', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let consoleErrors: string[];

  beforeAll(async () => {
    app = await startApp();
    await createFirstAdmin(app.baseUrl);
    browser = await launchBrowser();
    page = await browser.newPage({ locale: 'en-GB' });
    consoleErrors = watchConsole(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('registers a doctor, who then waits for approval', async () => {
    await page.goto(`${app.baseUrl}/login`);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByLabel('First name').fill(DOCTOR.firstName);
    await page.getByLabel('Last name').fill(DOCTOR.lastName);
    await page.getByLabel('Email').fill(DOCTOR.email);
    await page.getByLabel(/^Password/).fill(DOCTOR.password);
    await page.getByLabel('Confirm password').fill('something else');
    await page.getByLabel('Department').selectOption('Internal Medicine');
    await page.getByLabel('Facility').selectOption('Katutura State Hospital');
    await page.getByLabel('Role').selectOption({ label: 'Doctor' });
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText("Passwords don't match").waitFor();
    await page.getByLabel('Confirm password').fill(DOCTOR.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Registration successful', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
  });

  it('refuses the pending doctor at sign-in', async () => {
    await page.getByLabel('Email').fill(DOCTOR.email);
    await page.getByLabel(/^Password/).fill(DOCTOR.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Login Failed', { exact: true }).first().waitFor();
  });

  it('lets the administrator approve the doctor in Manage Users', async () => {
    await signInThroughPage(page, app.baseUrl, ADMIN.email, ADMIN.password);
    await page.getByRole('button', { name: 'Admin' }).click();
    await page.getByRole('tab', { name: 'Manage Users' }).click();
    await page.getByText(DOCTOR.email).waitFor();
    await screenshot(page, 'manage-users');
    await page.getByRole('button', { name: `Approve ${DOCTOR.firstName} ${DOCTOR.lastName}` }).click();
    await page.getByText('User approved', { exact: true }).first().waitFor();
    await page.getByText('No pending registrations').waitFor();
    await signOutThroughPage(page);
  });

  it('signs the doctor in to a dashboard with their name and role and no Admin button', async () => {
    await signInThroughPage(page, app.baseUrl, DOCTOR.email, DOCTOR.password);
    await page.getByRole('button', { name: `Open the profile of ${DOCTOR.firstName} ${DOCTOR.lastName}` }).waitFor();
    await page.getByText('Doctor', { exact: true }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Admin' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Audit' }).count()).toBe(0);
    await screenshot(page, 'doctor-dashboard');
  });

  it('lets the doctor edit their profile', async () => {
    await page.getByRole('button', { name: `Open the profile of ${DOCTOR.firstName} ${DOCTOR.lastName}` }).click();
    await page.getByRole('heading', { name: 'My Profile' }).waitFor();
    expect(await page.getByLabel('First name').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).waitFor();
    await page.getByLabel('Phone number').fill('+264 81 123 4567');
    await page.getByLabel('First name').fill('');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('First name is required').waitFor();
    await page.getByLabel('First name').fill('Tangeni');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Profile Updated', { exact: true }).first().waitFor();
    await screenshot(page, 'profile-updated');
  });

  it('switches the dashboard to Afrikaans and Oshiwambo', async () => {
    await page.getByRole('button', { name: /^Language: English/ }).click();
    await page.getByRole('button', { name: /Afrikaans/ }).click();
    await page.getByRole('heading', { name: 'My profiel' }).waitFor();
    await page.getByRole('button', { name: /^Taal: Afrikaans/ }).click();
    await page.getByRole('button', { name: /Oshiwambo/ }).click();
    await page.getByRole('heading', { name: 'Uuyelele wandje' }).waitFor();
    await screenshot(page, 'profile-oshiwambo');
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('ng');
  });

  it('ran without console errors', () => {
    expect(consoleErrors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
  });
});
