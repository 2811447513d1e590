// Journey at 360x740 (a small phone): a doctor opened a patient's record with a stated reason (break-the-glass);
// the patient finds that NC number and date of birth alone do not sign in, activates the portal with the code from the
// clinic's slip and a new PIN (decision 016), sees the record in every tab and that access with its reason in 'Access
// history', logs out to /patient-login and signs in again with the PIN. A staff session on /patient-portal sees the
// access error panel, never staff data, and a portal sign-in from that browser is refused. A receptionist issues a
// code at the desk (search result, printable slip in Oshiwambo), and a second patient activates with it.
// Screenshots of every screen go to e2e/artifacts/; the new screens pass axe.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, screenshot, watchConsole } from './support/browser';
import { axeViolations } from './support/axe';
import { signInThroughPage, signOutThroughPage } from './support/fixtures';
import { BREAK_GLASS_REASON, DESK, DOCTOR, PATIENT_PIN, seedPortalJourney, type PortalJourneyData } from './support/portal-seed';
import { startApp, type RunningApp } from './support/server';

const run = browserAvailable();

describe.skipIf(!run)('patient portal journey at 360 px', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let consoleErrors: string[];
  let data: PortalJourneyData;
  let dataDir: string | undefined;

  beforeAll(async () => {
    if (process.env.DATABASE_URL) {
      app = await startApp();
      data = await seedPortalJourney({ databaseUrl: app.databaseUrl });
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), 'nhr-portal-e2e-'));
      data = await seedPortalJourney({ dataDir });
      app = await startApp({ DATA_DIR: dataDir });
    }
    browser = await launchBrowser();
    page = await browser.newPage({ locale: 'en-GB', viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    consoleErrors = watchConsole(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const noSideways = async (): Promise<void> => {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
  };
  const toast = (title: string) => page.getByText(title, { exact: true }).first();

  const noAxeViolations = async (): Promise<void> => {
    expect(await axeViolations(page)).toEqual([]);
  };

  it('asks for every field, and NC number and date of birth with a guessed PIN do not sign in', async () => {
    await page.goto(`${app.baseUrl}/patient-login`);
    await page.getByRole('heading', { name: 'Patient Portal' }).waitFor();
    expect(await page.getByRole('link', { name: /Staff login/ }).getAttribute('href')).toBe('/login');
    expect(await page.getByRole('link', { name: /Use the code from your clinic/ }).getAttribute('href')).toBe('/patient-activate');
    await screenshot(page, 'portal-360-login');
    await noSideways();
    await noAxeViolations();

    await page.getByRole('button', { name: 'Access My Records' }).click();
    await toast('Missing information').waitFor();
    await page.getByText('Please enter your NC number, date of birth and PIN').first().waitFor();

    await page.getByLabel('NC Number').fill(data.patient.ncNumber);
    await page.getByLabel('Date of Birth').fill(data.patient.dateOfBirth);
    await page.getByLabel('PIN', { exact: true }).fill('123456');
    await page.getByRole('button', { name: 'Access My Records' }).click();
    await toast('Login failed').waitFor();
    await page.getByText('The NC number, date of birth or PIN is not correct.').first().waitFor();
    expect(page.url()).toMatch(/\/patient-login$/);
  });

  it('activates the portal with the code from the clinic and a new PIN, by keyboard', async () => {
    await page.getByRole('link', { name: /Use the code from your clinic/ }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/patient-activate');
    await page.getByRole('heading', { name: 'Activate the Patient Portal' }).waitFor();
    await noSideways();
    await noAxeViolations();
    await screenshot(page, 'portal-360-activate');

    await page.getByLabel('NC Number').fill(data.patient.ncNumber);
    await page.getByLabel('Date of Birth').fill(data.patient.dateOfBirth);
    const code = data.patientCode!;
    const wrong = code.startsWith('A') ? `B${code.slice(1)}` : `A${code.slice(1)}`;
    await page.getByLabel('Activation code').fill(wrong);
    await page.getByLabel('New PIN', { exact: true }).fill(PATIENT_PIN);
    await page.getByLabel('Confirm new PIN').fill(PATIENT_PIN);
    await page.getByRole('button', { name: 'Activate and sign in' }).click();
    await toast('Activation failed').waitFor();
    await page
      .getByText(/Ask your clinic for a new code/)
      .first()
      .waitFor();

    // The code as a person may type it (lower case, a space), and a confirmation that does not match.
    await page.getByLabel('Activation code').fill(`${code.slice(0, 4).toLowerCase()} ${code.slice(5).toLowerCase()}`);
    await page.getByLabel('Confirm new PIN').fill('482910');
    await page.getByRole('button', { name: 'Activate and sign in' }).click();
    await page.getByText('The two PINs are not the same').waitFor();
    expect(await page.getByLabel('Confirm new PIN').getAttribute('aria-invalid')).toBe('true');
    await noAxeViolations();

    // A PIN anyone could guess is refused beside its field, before any request.
    await page.getByLabel('New PIN', { exact: true }).fill('111111');
    await page.getByLabel('Confirm new PIN').fill('111111');
    await page.getByRole('button', { name: 'Activate and sign in' }).click();
    await page.getByText('This PIN is too easy to guess').first().waitFor();
    expect(await page.getByLabel('New PIN', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('New PIN', { exact: true }).fill(PATIENT_PIN);
    await page.getByLabel('Confirm new PIN').fill(PATIENT_PIN);
    await page.keyboard.press('Enter');
    await toast('Your PIN is set').waitFor();
    await page.waitForURL('**/patient-portal');
    await page.getByRole('heading', { name: 'Welcome, Ndinelao' }).waitFor();
    // Let the toast go (5 s), so the screenshots show the screen itself.
    await toast('Your PIN is set').waitFor({ state: 'hidden', timeout: 10_000 });
  });

  it('shows the overview with personal details and counts', async () => {
    const panel = page.getByRole('tabpanel');
    await panel.getByText('Ndinelao Haufiku').waitFor();
    await panel.getByText(data.patient.ncNumber).waitFor();
    await panel.getByText('21/07/1990').waitFor();
    await panel.getByText('14 Nangolo Street, Ondangwa, Oshana').waitFor();
    await panel.getByText('Selma Haufiku').waitFor();
    await panel.getByText('+264 81 876 5432').waitFor();
    for (const [label, n] of [
      ['Diagnoses', '2'],
      ['Appointments', '1'],
      ['Medications', '1'],
      ['Vaccines', '1'],
    ] as const) {
      const tile = panel.locator('dl > div').filter({ has: page.getByText(label, { exact: true }) });
      expect(await tile.locator('dd').textContent()).toBe(n);
    }
    await noSideways();
    await screenshot(page, 'portal-360-overview');
  });

  const openTab = async (name: string): Promise<void> => {
    await page.getByRole('tab', { name }).click();
    expect(await page.getByRole('tab', { name }).getAttribute('aria-selected')).toBe('true');
  };

  it('shows every clinical tab', async () => {
    const panel = page.getByRole('tabpanel');
    await openTab('Diagnoses');
    await panel.getByText('Hypertension').waitFor();
    await panel.getByText('Malaria').waitFor();
    await panel.getByText('14/05/2023').waitFor();
    await panel.getByText('Active', { exact: true }).waitFor();
    await noSideways();
    await screenshot(page, 'portal-360-diagnoses');

    await openTab('Appointments');
    await panel.getByText('Blood pressure review').waitFor();
    await panel.getByText('09/04/2026').waitFor();
    await panel.getByText('Scheduled', { exact: true }).waitFor();
    await screenshot(page, 'portal-360-appointments');

    await openTab('Allergies');
    await panel.getByText('Penicillin').waitFor();
    await panel.getByText('Swelling and hives').waitFor();
    await panel.getByText('Severe', { exact: true }).waitFor();
    await screenshot(page, 'portal-360-allergies');

    await openTab('Medications');
    await panel.getByText('Amlodipine').waitFor();
    await panel.getByText('Dr T. Amutenya').waitFor();
    await panel.getByText('5mg').waitFor();
    await screenshot(page, 'portal-360-medications');

    await openTab('Vaccines');
    await panel.getByText('Tetanus toxoid').waitFor();
    await panel.getByText('TT-2024-118').waitFor();
    // The schedule's card (decision 044), whose code loads when this tab is first shown (issue 21 item 18).
    await panel.getByRole('heading', { name: 'Immunization schedule' }).waitFor();
    await noSideways();
    await screenshot(page, 'portal-360-vaccines');
  });

  it('shows the break-the-glass access with its reason in Access history', async () => {
    await openTab('Access history');
    const panel = page.getByRole('tabpanel');
    await panel.getByText(BREAK_GLASS_REASON).waitFor();
    const entries = panel.getByRole('listitem');
    expect(await entries.count()).toBe(4);
    // Newest first: the activation, named after the staff member who issued its code (decision 031), the clinic's
    // activation code (decision 016), then the break-the-glass access, then consent.
    await entries.first().getByText('Portal activated with a code issued by this staff member').waitFor();
    await entries.first().getByText('Receptionist', { exact: true }).waitFor();
    await entries.nth(1).getByText('Activation code issued by the clinic').waitFor();
    await entries.nth(1).getByText('Receptionist', { exact: true }).waitFor();
    const emergency = entries.nth(2);
    await emergency.getByText(`${DOCTOR.firstName} ${DOCTOR.lastName}`).waitFor();
    await emergency.getByText('Without consent, reason given').waitFor();
    await emergency.getByText('Doctor', { exact: true }).waitFor();
    await emergency.getByText(DOCTOR.facility).waitFor();
    await entries.nth(3).getByText('With your consent').waitFor();
    await noSideways();
    await screenshot(page, 'portal-360-access-history');
  });

  it('reads in Afrikaans and Oshiwambo too', async () => {
    await page.getByRole('button', { name: /^Language: English/ }).click();
    await page.getByRole('button', { name: /Afrikaans/ }).click();
    await page.getByRole('heading', { name: 'Welkom, Ndinelao' }).waitFor();
    await page.getByRole('tab', { name: 'Toegangsgeskiedenis' }).waitFor();
    await page.getByText('Sonder toestemming, rede gegee').waitFor();
    await page.getByRole('button', { name: /^Taal: Afrikaans/ }).click();
    await page.getByRole('button', { name: /Oshiwambo/ }).click();
    await page.getByRole('heading', { name: 'Wa hala po, Ndinelao' }).waitFor();
    await page.getByRole('tab', { name: 'Omataleko' }).click();
    await page.getByText('Uuyelele woye').waitFor();
    await noSideways();
    await screenshot(page, 'portal-360-overview-oshiwambo');
    await page.getByRole('button', { name: /^Elaka: Oshiwambo/ }).click();
    await page.getByRole('button', { name: /English/ }).click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
  });

  it('logs out to /patient-login, after which the portal shows the access error panel', async () => {
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/patient-login');
    await page.getByRole('button', { name: 'Access My Records' }).waitFor();

    await page.goto(`${app.baseUrl}/patient-portal`);
    await page.getByText('Access Error').waitFor();
    await page.getByText('Unable to load your medical records. Please try logging in again.').waitFor();
    await screenshot(page, 'portal-360-access-error');
    await page.getByRole('button', { name: 'Return to Login' }).click();
    await page.waitForURL('**/patient-login');
  });

  it('signs in again with NC number, date of birth and the PIN; a wrong PIN is refused', async () => {
    await page.getByLabel('NC Number').fill(data.patient.ncNumber);
    await page.getByLabel('Date of Birth').fill(data.patient.dateOfBirth);
    await page.getByLabel('PIN', { exact: true }).fill('000000');
    await page.getByRole('button', { name: 'Access My Records' }).click();
    await toast('Login failed').waitFor();
    await page.getByLabel('PIN', { exact: true }).fill(PATIENT_PIN);
    await page.getByLabel('PIN', { exact: true }).press('Enter');
    await toast('Login successful').waitFor();
    await page.waitForURL('**/patient-portal');
    await page.getByRole('heading', { name: 'Welcome, Ndinelao' }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/patient-login');
  });

  it('shows a signed-in doctor the access error panel on /patient-portal, not staff data', async () => {
    await signInThroughPage(page, app.baseUrl, DOCTOR.email, DOCTOR.password);
    await page.goto(`${app.baseUrl}/patient-portal`);
    await page.getByText('Access Error').waitFor();
    expect(await page.getByText('Ndinelao').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^User menu for/ }).count()).toBe(0);
  });

  it('refuses a portal sign-in from the browser that holds the staff session (issue 10 item 1)', async () => {
    await page.goto(`${app.baseUrl}/patient-login`);
    await page.getByLabel('NC Number').fill(data.patient.ncNumber);
    await page.getByLabel('Date of Birth').fill(data.patient.dateOfBirth);
    await page.getByLabel('PIN', { exact: true }).fill(PATIENT_PIN);
    await page.getByRole('button', { name: 'Access My Records' }).click();
    await page
      .getByText('This browser is signed in to the staff system. Sign out there before using the patient portal.')
      .first()
      .waitFor();
    expect(page.url()).toMatch(/\/patient-login$/);
    await page.goto(`${app.baseUrl}/`);
    await signOutThroughPage(page);
  });

  let deskCode = '';
  it('a receptionist issues a portal code at the desk and prints the slip in Oshiwambo', async () => {
    await signInThroughPage(page, app.baseUrl, DESK.email, DESK.password);
    await page.getByRole('radio', { name: /NC number/ }).click();
    await page.getByLabel('NC number').fill(data.newcomer.ncNumber);
    await page.getByRole('button', { name: 'Search Patients' }).click();
    await page.getByRole('button', { name: 'Issue a portal activation code for Petrus Iipumbu' }).click();
    const dialog = page.getByRole('dialog', { name: 'Portal activation code' });
    await dialog.getByText(/It replaces any earlier code and is valid for 72 hours/).waitFor();
    await dialog.getByRole('button', { name: 'Issue code' }).click();
    await dialog.getByRole('heading', { name: 'Patient Portal activation' }).waitFor();
    await dialog.getByLabel('Language of the slip').selectOption('ng');
    await dialog.getByRole('heading', { name: 'Okutameka omiyalu dhaavu' }).waitFor();
    await dialog.getByText(`${app.baseUrl}/patient-activate`).waitFor();
    await dialog.getByText(data.newcomer.ncNumber).waitFor();
    deskCode = (await dialog.getByTestId('activation-code').textContent()) ?? '';
    expect(deskCode).toMatch(/^[2-9A-Z]{4}-[2-9A-Z]{4}$/);
    await noAxeViolations();
    await screenshot(page, 'portal-360-desk-slip');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await signOutThroughPage(page);
  });

  it('the second patient activates with the desk code and sees who issued it; the tabs are empty', async () => {
    await page.goto(`${app.baseUrl}/patient-activate`);
    await page.getByLabel('NC Number').fill(data.newcomer.ncNumber);
    await page.getByLabel('Date of Birth').fill(data.newcomer.dateOfBirth);
    await page.getByLabel('Activation code').fill(deskCode);
    await page.getByLabel('New PIN', { exact: true }).fill('731864');
    await page.getByLabel('Confirm new PIN').fill('731864');
    await page.getByRole('button', { name: 'Activate and sign in' }).click();
    await page.getByRole('heading', { name: 'Welcome, Petrus' }).waitFor();
    const panel = page.getByRole('tabpanel');
    for (const [tab, empty] of [
      ['Diagnoses', 'No diagnoses on record'],
      ['Appointments', 'No appointments on record'],
      ['Allergies', 'No allergies on record'],
      ['Medications', 'No medications on record'],
      ['Vaccines', 'No vaccines on record'],
    ] as const) {
      await openTab(tab);
      await panel.getByText(empty).waitFor();
    }
    await openTab('Access history');
    const code = panel.getByRole('listitem').filter({ hasText: 'Activation code issued by the clinic' });
    await code.getByText(`${DESK.firstName} ${DESK.lastName}`).waitFor();
    await code.getByText(DESK.facility).waitFor();
    expect(await page.getByText('Ndinelao').count()).toBe(0);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/patient-login');
  });

  it('ran without console errors', () => {
    expect(consoleErrors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
  });
});
