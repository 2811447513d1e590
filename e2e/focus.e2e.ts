// Journey (issue 21 items 16 and 17): where keyboard focus lands, by one rule for the whole client. A refused step
// focuses the form's error summary (which names the refusal), a new page focuses its heading, and a finished action
// focuses the section it changed: never the page body. Staff (wrong password, Create Account, Back to Login, an
// auditor's dashboard, a profile save, logout with its toast) and patients (wrong PIN, wrong activation code,
// activation, the portal, logout), at 375 px by keyboard.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable, screenshot } from './support/browser';
import { useJourney } from './support/journey';
import { ADMIN, apiPost, apiSignIn, createApprovedStaff, createFirstAdmin } from './support/fixtures';

const run = browserAvailable();
const AUDITOR = { firstName: 'Loide', lastName: 'Kalenga', email: 'loide.kalenga@health.gov.na', password: 'ledger-and-chain', roleId: 6 };
const PATIENT = { firstName: 'Hilma', lastName: 'Iipinge', dateOfBirth: '1994-02-11', sex: 'Female' };
const PIN = '570381';

/** What has keyboard focus: its tag, role, and text (the start of it). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      role: el?.getAttribute('role') ?? '',
      text: (el?.textContent ?? '').trim().slice(0, 80),
    };
  });

describe.skipIf(!run)('focus after every step', () => {
  let patient: { idNumber: string; code: string };
  const j = useJourney({
    viewport: { width: 375, height: 740 },
    prepare: async (app) => {
      await createFirstAdmin(app.baseUrl);
      const admin = await apiSignIn(app.baseUrl, ADMIN.email, ADMIN.password);
      await createApprovedStaff(app.baseUrl, admin, AUDITOR);
      const added = await apiPost<{ idNumber: string; portalActivation: { code: string } }>(
        app.baseUrl,
        admin,
        '/api/admin/patients',
        PATIENT,
        201,
      );
      patient = { idNumber: added.idNumber, code: added.portalActivation.code };
    },
  });

  it('staff sign-in: a wrong password focuses the refusal; Create Account and Back to Login focus their headings', async () => {
    const { page } = j;
    await page.goto(`${j.app.baseUrl}/login`);
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Staff sign in' });
    await page.getByLabel('Email').fill(AUDITOR.email);
    await page.getByLabel(/^Password/).fill('not-the-password');
    await page.getByLabel(/^Password/).press('Enter');
    await expect.poll(() => focused(page)).toMatchObject({ role: 'alert', text: expect.stringMatching(/^Login failed/i) });
    await screenshot(page, 'focus-375-login-refused');
    // The same refusal again is focused again (the user had moved on to the field).
    await page.getByLabel(/^Password/).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatchObject({ role: 'alert' });

    await page.getByRole('button', { name: 'Create Account' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Create an account' });
    await page.getByRole('button', { name: 'Back to Login' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Staff sign in' });
  });

  it("an auditor's dashboard focuses its heading after sign-in; a profile save focuses the section it changed", async () => {
    const { page } = j;
    await page.getByLabel('Email').fill(AUDITOR.email);
    await page.getByLabel(/^Password/).fill(AUDITOR.password);
    await page.getByLabel(/^Password/).press('Enter');
    await expect.poll(() => focused(page), { timeout: 15_000 }).toMatchObject({ tag: 'h2', text: 'Your work' });

    await page.getByRole('button', { name: /^User menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'h2', text: 'My Profile' });
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel(/^Phone/).fill('+264 61 203 9111');
    await page.getByRole('button', { name: 'Save Changes' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'h2', text: 'Personal information' });
  });

  it('logout lands on the sign-in heading, and its toast is seen (item 17)', async () => {
    const { page } = j;
    await page.getByRole('button', { name: /^User menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await page.getByText('Logged out successfully', { exact: true }).waitFor();
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Staff sign in' });
    await screenshot(page, 'focus-375-logged-out');
  });

  it('patient sign-in: a wrong PIN focuses the refusal; a wrong activation code too; activation focuses the portal', async () => {
    const { page } = j;
    await page.goto(`${j.app.baseUrl}/patient-login`);
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Patient Portal' });
    await page.getByLabel('NC Number').fill(patient.idNumber);
    await page.getByLabel('Date of Birth').fill('11/02/1994');
    await page.getByLabel('PIN', { exact: true }).fill('604217');
    await page.getByLabel('PIN', { exact: true }).press('Enter');
    await expect.poll(() => focused(page)).toMatchObject({ role: 'alert' });

    await page.getByRole('link', { name: /Use the code from your clinic/ }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Activate the Patient Portal' });
    await page.getByLabel('NC Number').fill(patient.idNumber);
    await page.getByLabel('Date of Birth').fill('11/02/1994');
    const wrong = patient.code.startsWith('A') ? `B${patient.code.slice(1)}` : `A${patient.code.slice(1)}`;
    await page.getByLabel('Activation code').fill(wrong);
    await page.getByLabel('New PIN', { exact: true }).fill(PIN);
    await page.getByLabel('Confirm new PIN').fill(PIN);
    await page.getByLabel('Confirm new PIN').press('Enter');
    await expect.poll(() => focused(page)).toMatchObject({ role: 'alert', text: expect.stringMatching(/^Activation failed/) });
    await screenshot(page, 'focus-375-activation-refused');

    await page.getByLabel('Activation code').fill(patient.code);
    await page.getByLabel('Confirm new PIN').press('Enter');
    await page.waitForURL('**/patient-portal');
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Welcome, Hilma' });
  });

  it('patient logout lands on the sign-in heading', async () => {
    const { page } = j;
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/patient-login');
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Patient Portal' });
  });

  it('left the console clean (refused sign-ins aside)', () => {
    expect(j.consoleErrors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
  });
});
