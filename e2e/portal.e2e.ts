// Journey at 360x740 (a small phone): a doctor opened a patient's record with a stated reason (break-the-glass);
// the patient signs in with NC number and date of birth, sees the record in every tab and that access with its
// reason in 'Access history', and logs out to /patient-login. A staff session on /patient-portal sees the access
// error panel, never staff data. Screenshots of every tab go to e2e/artifacts/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, screenshot, watchConsole } from './support/browser';
import { signInThroughPage } from './support/fixtures';
import { BREAK_GLASS_REASON, DOCTOR, seedPortalJourney, type PortalJourneyData } from './support/portal-seed';
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

  it('asks for both fields, refuses a wrong date of birth, then signs the patient in', async () => {
    await page.goto(`${app.baseUrl}/patient-login`);
    await page.getByRole('heading', { name: 'Patient Portal' }).waitFor();
    expect(await page.getByRole('link', { name: /Staff login/ }).getAttribute('href')).toBe('/login');
    await screenshot(page, 'portal-360-login');
    await noSideways();

    await page.getByRole('button', { name: 'Access My Records' }).click();
    await toast('Missing information').waitFor();
    await page.getByText('Please enter both your NC number and date of birth').first().waitFor();

    await page.getByLabel('NC Number').fill(data.patient.ncNumber);
    await page.getByLabel('Date of Birth').fill('1990-07-22');
    await page.getByRole('button', { name: 'Access My Records' }).click();
    await toast('Login failed').waitFor();
    await page.getByText('The NC number or date of birth is not correct.').first().waitFor();

    await page.getByLabel('Date of Birth').fill(data.patient.dateOfBirth);
    await page.getByRole('button', { name: 'Access My Records' }).click();
    await toast('Login successful').waitFor();
    await page.getByText('Welcome, Ndinelao!').first().waitFor();
    await page.waitForURL('**/patient-portal');
    await page.getByRole('heading', { name: 'Welcome, Ndinelao' }).waitFor();
    // Let the toast go (5 s), so the screenshots show the screen itself.
    await toast('Login successful').waitFor({ state: 'hidden', timeout: 10_000 });
  });

  it('shows the overview with personal details and counts', async () => {
    const panel = page.getByRole('tabpanel');
    await panel.getByText('Ndinelao Haufiku').waitFor();
    await panel.getByText(data.patient.ncNumber).waitFor();
    await panel.getByText('21/07/1990').waitFor();
    await panel.getByText('14 Nangolo Street, Ondangwa, Oshana').waitFor();
    await panel.getByText('Selma Haufiku').waitFor();
    await panel.getByText('+264 81 876 5432').waitFor();
    for (const [label, n] of [['Diagnoses', '2'], ['Appointments', '1'], ['Medications', '1'], ['Vaccines', '1']] as const) {
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
    await noSideways();
    await screenshot(page, 'portal-360-vaccines');
  });

  it('shows the break-the-glass access with its reason in Access history', async () => {
    await openTab('Access history');
    const panel = page.getByRole('tabpanel');
    await panel.getByText(BREAK_GLASS_REASON).waitFor();
    const entries = panel.getByRole('listitem');
    expect(await entries.count()).toBe(2);
    const newest = entries.first();
    await newest.getByText(`${DOCTOR.firstName} ${DOCTOR.lastName}`).waitFor();
    await newest.getByText('Without consent, reason given').waitFor();
    await newest.getByText('Doctor', { exact: true }).waitFor();
    await newest.getByText(DOCTOR.facility).waitFor();
    await entries.nth(1).getByText('With your consent').waitFor();
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

  it('shows a signed-in doctor the access error panel on /patient-portal, not staff data', async () => {
    await signInThroughPage(page, app.baseUrl, DOCTOR.email, DOCTOR.password);
    await page.goto(`${app.baseUrl}/patient-portal`);
    await page.getByText('Access Error').waitFor();
    expect(await page.getByText('Ndinelao').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^User menu for/ }).count()).toBe(0);
  });

  it('shows the empty-tab messages to a patient with nothing on record', async () => {
    await page.goto(`${app.baseUrl}/patient-login`);
    await page.getByLabel('NC Number').fill(data.newcomer.ncNumber);
    await page.getByLabel('Date of Birth').fill(data.newcomer.dateOfBirth);
    await page.getByRole('button', { name: 'Access My Records' }).click();
    await page.getByRole('heading', { name: 'Welcome, Petrus' }).waitFor();
    const panel = page.getByRole('tabpanel');
    for (const [tab, empty] of [
      ['Diagnoses', 'No diagnoses on record'],
      ['Appointments', 'No appointments on record'],
      ['Allergies', 'No allergies on record'],
      ['Medications', 'No medications on record'],
      ['Vaccines', 'No vaccines on record'],
      ['Access history', 'Nobody has opened your record yet.'],
    ] as const) {
      await openTab(tab);
      await panel.getByText(empty).waitFor();
    }
    expect(await page.getByText('Ndinelao').count()).toBe(0);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/patient-login');
  });

  it('ran without console errors', () => {
    expect(consoleErrors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
  });
});
