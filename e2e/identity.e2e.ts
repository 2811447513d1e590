// Journey: a doctor registers, an administrator approves, the doctor signs in and edits their profile.
import { describe, expect, it } from 'vitest';
import { browserAvailable, screenshot } from './support/browser';
import { useJourney } from './support/journey';
import { ADMIN, createFirstAdmin, signInThroughPage, signOutThroughPage } from './support/fixtures';

const run = browserAvailable();
const DOCTOR = { firstName: 'Tangeni', lastName: 'Amutenya', email: 'tangeni.amutenya@health.gov.na', password: 'stethoscope-42' };

describe.skipIf(!run)('staff identity journey', () => {
  const j = useJourney({
    prepare: async (app) => {
      await createFirstAdmin(app.baseUrl);
    },
  });

  it('registers a doctor, who then waits for approval', async () => {
    await j.page.goto(`${j.app.baseUrl}/login`);
    await j.page.getByRole('button', { name: 'Create Account' }).click();
    await j.page.getByLabel('First name').fill(DOCTOR.firstName);
    await j.page.getByLabel('Last name').fill(DOCTOR.lastName);
    await j.page.getByLabel('Email').fill(DOCTOR.email);
    await j.page.getByLabel(/^Password/).fill(DOCTOR.password);
    await j.page.getByLabel('Confirm password').fill('something else');
    await j.page.getByLabel('Department').selectOption('Internal Medicine');
    await j.page.getByLabel('Facility').selectOption('Katutura State Hospital');
    await j.page.getByLabel('Role').selectOption({ label: 'Doctor' });
    await j.page.getByRole('button', { name: 'Create Account' }).click();
    await j.page.getByText("Passwords don't match").waitFor();
    await j.page.getByLabel('Confirm password').fill(DOCTOR.password);
    await j.page.getByRole('button', { name: 'Create Account' }).click();
    await j.page.getByText('Registration successful', { exact: true }).first().waitFor();
    await j.page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
  });

  it('refuses the pending doctor at sign-in', async () => {
    await j.page.getByLabel('Email').fill(DOCTOR.email);
    await j.page.getByLabel(/^Password/).fill(DOCTOR.password);
    await j.page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await j.page.getByText('Login Failed', { exact: true }).first().waitFor();
  });

  it('lets the administrator approve the doctor in Manage Users', async () => {
    await signInThroughPage(j.page, j.app.baseUrl, ADMIN.email, ADMIN.password);
    await j.page.getByRole('button', { name: 'Admin', exact: true }).click();
    await j.page.getByRole('tab', { name: 'Manage Users' }).click();
    await j.page.getByText(DOCTOR.email).waitFor();
    await screenshot(j.page, 'manage-users');
    await j.page.getByRole('button', { name: `Approve ${DOCTOR.firstName} ${DOCTOR.lastName}` }).click();
    await j.page.getByText('User approved', { exact: true }).first().waitFor();
    await j.page.getByText('No pending registrations').waitFor();
    await signOutThroughPage(j.page);
  });

  it('signs the doctor in to a dashboard with their name and role and no Admin button', async () => {
    await signInThroughPage(j.page, j.app.baseUrl, DOCTOR.email, DOCTOR.password);
    await j.page.getByRole('button', { name: `Open the profile of ${DOCTOR.firstName} ${DOCTOR.lastName}` }).waitFor();
    await j.page.getByText('Doctor', { exact: true }).first().waitFor();
    expect(await j.page.getByRole('button', { name: 'Admin', exact: true }).count()).toBe(0);
    expect(await j.page.getByRole('button', { name: 'Audit', exact: true }).count()).toBe(0);
    await screenshot(j.page, 'doctor-dashboard');
  });

  it('lets the doctor edit their profile', async () => {
    await j.page.getByRole('button', { name: `Open the profile of ${DOCTOR.firstName} ${DOCTOR.lastName}` }).click();
    await j.page.getByRole('heading', { name: 'My Profile' }).waitFor();
    expect(await j.page.getByLabel('First name').isDisabled()).toBe(true);
    await j.page.getByRole('button', { name: 'Edit Profile' }).click();
    await j.page.getByRole('button', { name: 'Save Changes' }).waitFor();
    await j.page.getByLabel('Phone number').fill('+264 81 123 4567');
    await j.page.getByLabel('First name').fill('');
    await j.page.getByRole('button', { name: 'Save Changes' }).click();
    await j.page.getByText('First name is required').waitFor();
    await j.page.getByLabel('First name').fill('Tangeni');
    await j.page.getByRole('button', { name: 'Save Changes' }).click();
    await j.page.getByText('Profile Updated', { exact: true }).first().waitFor();
    await screenshot(j.page, 'profile-updated');
  });

  it('switches the dashboard to Afrikaans and Oshiwambo', async () => {
    await j.page.getByRole('button', { name: /^Language: English/ }).click();
    await j.page.getByRole('button', { name: /Afrikaans/ }).click();
    await j.page.getByRole('heading', { name: 'My profiel' }).waitFor();
    await j.page.getByRole('button', { name: /^Taal: Afrikaans/ }).click();
    await j.page.getByRole('button', { name: /Oshiwambo/ }).click();
    await j.page.getByRole('heading', { name: 'Uuyelele wandje' }).waitFor();
    await screenshot(j.page, 'profile-oshiwambo');
    expect(await j.page.evaluate(() => localStorage.getItem('language'))).toBe('ng');
  });

  it('ran without console errors', () => {
    expect(j.consoleErrors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
  });
});
