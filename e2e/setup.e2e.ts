// Journey: a fresh install shows first-time setup; the first administrator is created; then the login page.
import { describe, expect, it } from 'vitest';
import { browserAvailable, screenshot } from './support/browser';
import { useJourney } from './support/journey';

const run = browserAvailable();

describe.skipIf(!run)('first-time setup journey', () => {
  const j = useJourney();

  it('shows the setup screen on a fresh start', async () => {
    await j.page.goto(`${j.app.baseUrl}/`);
    await j.page.getByRole('heading', { name: 'First-time setup' }).waitFor();
    await screenshot(j.page, 'setup-screen');
  });

  it('shows the SPEC message for an invalid email and keeps what was typed', async () => {
    await j.page.getByLabel('First name').fill('Ndapewa');
    await j.page.getByLabel('Last name').fill('Nghipondoka');
    await j.page.getByLabel('Email').fill('not-an-email');
    await j.page.getByLabel(/^Password/).fill('correct horse battery');
    await j.page.getByLabel('Confirm password').fill('correct horse battery');
    await j.page.getByLabel('Facility').selectOption('Windhoek Central Hospital');
    await j.page.getByLabel('Department').selectOption('administration');
    await j.page.getByRole('button', { name: 'Complete Setup' }).click();
    await j.page.getByText('Please enter a valid email address').waitFor();
    expect(await j.page.getByLabel('First name').inputValue()).toBe('Ndapewa');
  });

  it('shows the progress overlay, then the login page', async () => {
    await j.page.getByLabel('Email').fill('admin@health.gov.na');
    await j.page.getByRole('button', { name: 'Complete Setup' }).click();
    const bar = j.page.getByRole('progressbar');
    await bar.waitFor();
    await j.page.getByText('Setting up security protocols').first().waitFor();
    await screenshot(j.page, 'setup-overlay');
    await j.page.waitForURL('**/login', { timeout: 15_000 });
    await j.page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    await j.page.getByText('Setup Complete', { exact: true }).first().waitFor();
  });

  it('shows the login page, not setup, after a reload of /', async () => {
    await j.page.goto(`${j.app.baseUrl}/`);
    await j.page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    expect(await j.page.getByRole('heading', { name: 'First-time setup' }).count()).toBe(0);
    await screenshot(j.page, 'login-after-setup');
  });

  it('ran without console errors or CSP violations', () => {
    // The signed-out check of GET /api/auth/user answers 401 by design; anything else is a fault.
    expect(j.consoleErrors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });
});
