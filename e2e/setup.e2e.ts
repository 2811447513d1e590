// Journey: a fresh install shows first-time setup; the first administrator is created; then the login page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, screenshot, watchConsole } from './support/browser';
import { startApp, type RunningApp } from './support/server';

const run = browserAvailable();

describe.skipIf(!run)('first-time setup journey', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let consoleErrors: string[];

  beforeAll(async () => {
    app = await startApp();
    browser = await launchBrowser();
    page = await browser.newPage({ locale: 'en-GB' });
    consoleErrors = watchConsole(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('shows the setup screen on a fresh start', async () => {
    await page.goto(`${app.baseUrl}/`);
    await page.getByRole('heading', { name: 'First-time setup' }).waitFor();
    await screenshot(page, 'setup-screen');
  });

  it('shows the SPEC message for an invalid email and keeps what was typed', async () => {
    await page.getByLabel('First name').fill('Ndapewa');
    await page.getByLabel('Last name').fill('Nghipondoka');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByLabel('Confirm password').fill('correct horse battery');
    await page.getByLabel('Facility').selectOption('Windhoek Central Hospital');
    await page.getByLabel('Department').selectOption('administration');
    await page.getByRole('button', { name: 'Complete Setup' }).click();
    await page.getByText('Please enter a valid email address').waitFor();
    expect(await page.getByLabel('First name').inputValue()).toBe('Ndapewa');
  });

  it('shows the progress overlay, then the login page', async () => {
    await page.getByLabel('Email').fill('admin@health.gov.na');
    await page.getByRole('button', { name: 'Complete Setup' }).click();
    const bar = page.getByRole('progressbar');
    await bar.waitFor();
    await page.getByText('Setting up security protocols').first().waitFor();
    await screenshot(page, 'setup-overlay');
    await page.waitForURL('**/login', { timeout: 15_000 });
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await page.getByText('Setup Complete', { exact: true }).first().waitFor();
  });

  it('shows the login page, not setup, after a reload of /', async () => {
    await page.goto(`${app.baseUrl}/`);
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await page.getByRole('heading', { name: 'First-time setup' }).count()).toBe(0);
    await screenshot(page, 'login-after-setup');
  });

  it('ran without console errors or CSP violations', () => {
    // The signed-out check of GET /api/auth/user answers 401 by design; anything else is a fault.
    expect(consoleErrors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });
});
