// Journey for issue 10's browser defects (items 11-14, 16), on a 375 x 667 phone and a desktop:
// - 11: the logout button covers nothing (no overlap with 'Search Patients'; a tap there reaches the search button),
//   and the record's CRITICAL alert is in the phone's first screen with the section list collapsed.
// - 12: Reject asks for confirmation and its toast is translated; any missing translation key fails the journey
//   (lib/i18n.ts reports missing keys on the console, and the console must stay clean).
// - 13: keyboard focus goes to the new content after sign-in and Grant Access, and back to the opener after
//   saving a dialog or Escape; after a delete, to the section heading. Never to <body>.
// - 14: Back to Search keeps the search; a failed validation clears the old results; a reversed audit range is
//   refused at the field at once, without a request.
// - 16: axe finds no violation on the main screens (with the user menu and language list open), and a page
//   downloads only its own language's translations.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { todayIso } from '../src/contracts/calendar';
import { openDatabase } from '../src/server/db/client';
import { vitalsTable as vitals } from '../src/server/modules/records/kinds/vitals';
import { createStaffUser } from '../src/server/test/staff';
import { axeViolations } from './support/axe';
import { browserAvailable, launchBrowser, screenshot, watchConsole } from './support/browser';
import { ADMIN, signInThroughPage, signOutThroughPage } from './support/fixtures';
import { DOCTOR, PATIENT_PIN, seedPortalJourney, type PortalJourneyData } from './support/portal-seed';
import { startApp, type RunningApp } from './support/server';

const run = browserAvailable();
const AUDITOR = { firstName: 'Selma', lastName: 'Haufiku', email: 'selma.haufiku@health.gov.na', password: 'ledger-and-chain' };
const APPLICANT = { firstName: 'Petrus', lastName: 'Shilongo', email: 'petrus.shilongo@health.gov.na', password: 'applicant-pass-9' };
const PHONE = { width: 375, height: 667 };

/** The portal journey's patient and doctor, an administrator, an auditor, a pending registration, and a reading
 * that raises a CRITICAL alert. */
async function seed(target: { dataDir?: string; databaseUrl?: string }): Promise<PortalJourneyData> {
  const data = await seedPortalJourney({ ...target, activated: true });
  const handle = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir ?? 'memory://', poolSize: 2 });
  try {
    await createStaffUser(handle.db, { roleId: 1, ...ADMIN });
    await createStaffUser(handle.db, { roleId: 6, ...AUDITOR });
    await createStaffUser(handle.db, { roleId: 3, active: false, ...APPLICANT });
    await handle.db
      .insert(vitals)
      .values({ patientId: data.patient.id, systolic: 190, diastolic: 100, recordedBy: 'Nurse M. Nghipandulwa' });
  } finally {
    await handle.close();
  }
  return data;
}

describe.skipIf(!run)('UI hardening journey (issue 10, items 11-14 and 16)', () => {
  let app: RunningApp;
  let browser: Browser;
  let phone: Page;
  let desk: Page;
  let data: PortalJourneyData;
  let dataDir: string | undefined;
  const consoleErrors: string[][] = [];
  /** Scripts the phone downloaded, in order (translations are locale-<lang>-<namespace> chunks). */
  const scripts: string[] = [];

  beforeAll(async () => {
    if (process.env.DATABASE_URL) {
      app = await startApp();
      data = await seed({ databaseUrl: app.databaseUrl });
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), 'nhr-ui-e2e-'));
      data = await seed({ dataDir });
      app = await startApp({ DATA_DIR: dataDir });
    }
    browser = await launchBrowser();
    phone = await browser.newPage({ locale: 'en-GB', viewport: PHONE, isMobile: true, hasTouch: true });
    desk = await browser.newPage({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });
    for (const p of [phone, desk]) {
      p.setDefaultTimeout(15_000);
      consoleErrors.push(watchConsole(p));
    }
    phone.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const focused = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement;
      return { tag: el?.tagName.toLowerCase() ?? '', text: (el?.textContent ?? '').trim(), label: el?.getAttribute('aria-label') ?? '' };
    });
  const noViolations = async (page: Page, screen: string): Promise<void> => {
    expect(await axeViolations(page), screen).toEqual([]);
  };

  it('login screen: no axe violation (language list open too); focus lands on the search heading after sign-in', async () => {
    await desk.goto(`${app.baseUrl}/login`);
    await desk.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    await noViolations(desk, 'login');
    await desk.getByRole('button', { name: /^Language: English/ }).click();
    await desk.getByRole('button', { name: /Afrikaans/ }).waitFor();
    await noViolations(desk, 'login, language list open');
    await desk.keyboard.press('Escape');

    await phone.goto(`${app.baseUrl}/login`);
    await phone.getByLabel('Email').fill(DOCTOR.email);
    await phone.getByLabel(/^Password/).fill(DOCTOR.password);
    await phone.getByLabel(/^Password/).press('Enter');
    await phone.getByRole('heading', { name: 'Patient Search' }).waitFor();
    await expect.poll(() => focused(phone)).toMatchObject({ tag: 'h2', text: 'Patient Search' });
  });

  it('11: on a phone the Log out button covers nothing; a tap on Search Patients reaches it', async () => {
    await screenshot(phone, 'ui-375-search');
    const logout = phone.getByRole('button', { name: 'Log out' });
    const search = phone.getByRole('button', { name: 'Search Patients' });
    await search.scrollIntoViewIfNeeded();
    const [a, b] = [await logout.boundingBox(), await search.boundingBox()];
    expect(a && b).toBeTruthy();
    const overlap = (x: NonNullable<typeof a>, y: NonNullable<typeof a>): boolean =>
      x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
    expect(overlap(a!, b!)).toBe(false);
    // Every point across the search button belongs to it (nothing floats over its left, middle or right).
    for (const fx of [0.1, 0.5, 0.9]) {
      const hit = await phone.evaluate(
        ([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.textContent?.trim() ?? '',
        [b!.x + b!.width * fx, b!.y + b!.height / 2],
      );
      expect(hit).toBe('Search Patients');
    }
  });

  it('16: the dashboard downloaded only the English translations', () => {
    const locales = scripts.filter((s) => s.includes('/locale-'));
    expect(locales.some((s) => s.includes('/locale-en-'))).toBe(true);
    expect(locales.filter((s) => /\/locale-(af|ng)-/.test(s))).toEqual([]);
  });

  it('13: Escape on the access dialog returns focus to the result that opened it', async () => {
    await phone.getByRole('radio', { name: /NC number/ }).click();
    await phone.getByLabel('NC number').fill(data.patient.ncNumber);
    await phone.getByRole('button', { name: 'Search Patients' }).click();
    const result = phone.getByRole('button', { name: /Haufiku, Ndinelao/ });
    await result.focus();
    await phone.keyboard.press('Enter');
    await phone.getByRole('dialog').waitFor();
    await noViolations(phone, 'access dialog');
    await phone.keyboard.press('Escape');
    await phone.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused(phone)).text).toContain('Haufiku, Ndinelao');
  });

  it('11 + 13: Grant Access opens the record with focus on the patient; the CRITICAL alert is in the first screen', async () => {
    await phone.getByRole('button', { name: /Haufiku, Ndinelao/ }).click();
    await phone.getByRole('radio', { name: 'Yes, patient has granted access' }).click();
    await phone.getByRole('button', { name: 'Grant Access' }).click();
    const alert = phone.getByRole('alert', { name: 'Critical alerts' });
    await alert.getByText(/^CRITICAL: Hypertensive crisis/).waitFor();
    await expect.poll(() => focused(phone)).toMatchObject({ tag: 'h2', text: 'Ndinelao Haufiku' });
    await phone.evaluate(() => window.scrollTo(0, 0));
    const box = await alert.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height);
    const toggle = phone.getByRole('button', { name: /^Record sections/ });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await phone.getByRole('navigation', { name: 'Record sections' }).count()).toBe(0);
    await screenshot(phone, 'ui-375-record');
    await noViolations(phone, 'record');
    await toggle.click();
    await phone.getByRole('navigation', { name: 'Record sections' }).getByRole('button', { name: 'Allergies' }).click();
    await phone.getByRole('heading', { name: 'Allergies' }).waitFor();
    expect(await phone.getByRole('navigation', { name: 'Record sections' }).count()).toBe(0);
    await screenshot(phone, 'ui-375-record-allergies');
  });

  it('14: Back to Search keeps the search and its results; a failed validation clears them', async () => {
    await phone.getByRole('button', { name: 'Back to Search' }).click();
    await phone.getByRole('button', { name: /Haufiku, Ndinelao/ }).waitFor();
    expect(await phone.getByLabel('NC number').inputValue()).toBe(data.patient.ncNumber);
    await expect.poll(() => focused(phone)).toMatchObject({ tag: 'h2', text: 'Patient Search' });
    await phone.getByLabel('NC number').fill('12');
    await phone.getByRole('button', { name: 'Search Patients' }).click();
    await phone.getByRole('alert').filter({ hasText: /./ }).first().waitFor();
    expect(await phone.getByRole('button', { name: /Haufiku, Ndinelao/ }).count()).toBe(0);
    await noViolations(phone, 'search with a validation message');
  });

  it('13: saving a dialog returns focus to its opener; entered in error to the section heading', async () => {
    await signInThroughPage(desk, app.baseUrl, DOCTOR.email, DOCTOR.password);
    await desk.goto(`${app.baseUrl}/?patient=${data.patient.id}`);
    await desk.getByRole('heading', { name: 'Medical Dashboard' }).waitFor();
    await noViolations(desk, 'record, desktop');
    await desk.getByRole('button', { name: 'Edit', exact: true }).click();
    await desk.getByRole('navigation', { name: 'Record sections' }).getByRole('button', { name: 'Vaccines' }).click();
    const add = desk.getByRole('button', { name: 'Add Vaccine' });
    await add.focus();
    await desk.keyboard.press('Enter');
    const dialog = desk.getByRole('dialog');
    await dialog.getByLabel('Vaccine name').fill('Measles');
    await dialog.getByLabel(/^Date\b/).fill(todayIso());
    await dialog.getByLabel(/^Dose\b/).fill('First dose');
    await dialog.getByLabel('Facility').fill('Oshakati State Hospital');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focused(desk)).toMatchObject({ tag: 'button', text: 'Add Vaccine' });

    await desk.getByRole('navigation', { name: 'Record sections' }).getByRole('button', { name: 'Allergies' }).click();
    await desk.getByRole('button', { name: 'Entered in error: Penicillin' }).click();
    await desk
      .getByRole('dialog')
      .getByLabel(/^Reason/)
      .fill('Recorded for the wrong patient');
    await desk.getByRole('dialog').getByRole('button', { name: 'Mark entered in error' }).click();
    await desk.getByText('Allergy marked entered in error', { exact: true }).first().waitFor();
    await expect.poll(() => focused(desk)).toMatchObject({ tag: 'h2', text: 'Allergies' });
    await signOutThroughPage(desk);
  });

  it('12 + 16: Reject asks first and shows a translated toast; no axe violation with the user menu open', async () => {
    await signInThroughPage(desk, app.baseUrl, ADMIN.email, ADMIN.password);
    await desk.getByRole('button', { name: /^User menu for/ }).click();
    await desk.getByRole('menuitem', { name: 'Profile' }).waitFor();
    await noViolations(desk, 'dashboard, user menu open');
    await desk.keyboard.press('Escape');
    await desk.getByRole('button', { name: 'Admin', exact: true }).click();
    await desk.getByRole('tab', { name: 'Manage Users' }).click();
    const reject = desk.getByRole('button', { name: `Reject ${APPLICANT.firstName} ${APPLICANT.lastName}` });
    await reject.click();
    const confirm = desk.getByRole('dialog', { name: 'Reject this registration?' });
    await confirm.getByText(APPLICANT.email, { exact: false }).waitFor();
    await noViolations(desk, 'reject confirmation');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect
      .poll(() => focused(desk))
      .toMatchObject({ label: `Reject ${APPLICANT.firstName} ${APPLICANT.lastName} (${APPLICANT.email})` });
    await desk.getByText(APPLICANT.email).waitFor();
    await reject.click();
    await confirm.getByRole('button', { name: 'Reject registration' }).click();
    await desk.getByText('User rejected', { exact: true }).first().waitFor();
    await desk.getByText('No pending registrations').waitFor();
    expect(await desk.getByText(/toast\./).count()).toBe(0);
    await expect.poll(() => focused(desk)).toMatchObject({ text: 'Pending User Registrations' });
    await noViolations(desk, 'manage users');
    await signOutThroughPage(desk);
  });

  it('14: a reversed audit date range gets a field message at once, and no request', async () => {
    await signInThroughPage(desk, app.baseUrl, AUDITOR.email, AUDITOR.password);
    await desk.getByRole('button', { name: 'Audit', exact: true }).click();
    await desk.getByRole('heading', { name: 'Audit and Compliance' }).waitFor();
    await noViolations(desk, 'audit');
    const requests: string[] = [];
    desk.on('request', (r) => {
      if (r.url().includes('/api/audit-logs')) requests.push(r.url());
    });
    await desk.getByLabel('Date from').fill('2026-03-10');
    await desk.getByLabel('Date to').fill('2026-03-01');
    await desk.getByRole('button', { name: 'Apply Filters' }).click();
    await desk.getByText('The end date must be on or after the start date').waitFor({ timeout: 1_000 });
    expect(await desk.getByLabel('Date to').getAttribute('aria-invalid')).toBe('true');
    expect(requests).toEqual([]);
    await signOutThroughPage(desk);
  });

  it('16: the patient portal has no axe violation; switching language downloads that language', async () => {
    await desk.goto(`${app.baseUrl}/patient-login`);
    await desk.getByRole('heading', { name: 'Patient Portal' }).waitFor();
    await noViolations(desk, 'patient login');
    await desk.getByLabel('NC Number').fill(data.patient.ncNumber);
    await desk.getByLabel('Date of Birth').fill(data.patient.dateOfBirth);
    await desk.getByLabel('PIN', { exact: true }).fill(PATIENT_PIN);
    await desk.getByRole('button', { name: 'Access My Records' }).click();
    await desk.getByRole('heading', { name: /Welcome/ }).waitFor();
    await noViolations(desk, 'portal');

    const before = scripts.length;
    await phone.getByRole('button', { name: /^Language: English/ }).click();
    await phone.getByRole('button', { name: /Afrikaans/ }).click();
    await phone.getByRole('heading', { name: 'Pasiënt soek' }).waitFor();
    expect(scripts.slice(before).some((s) => s.includes('/locale-af-'))).toBe(true);
    expect(scripts.some((s) => s.includes('/locale-ng-'))).toBe(false);
  });

  it('ran without console errors (a missing translation key is one)', () => {
    expect(consoleErrors.flat().filter((e) => !/status of 40[0-9]/.test(e))).toEqual([]);
  });
});
