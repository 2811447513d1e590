// Journey at 375 px (issue 13): a paramedic from Oshakati breaks the glass on a Windhoek patient's record; the patient
// sees the emergency access awaiting review; an auditor sees it on the dashboard counts and in the review queue,
// flagged out of region with the reason, opens it by keyboard, sees what was read, and marks it justified; the
// patient then sees "Reviewed: justified" in English and "Hersien: geregverdig" in Afrikaans, and the counter at 0.
// Screenshots of each new screen go to e2e/artifacts/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { activatePatient, insertPatient, PATIENT_PIN, type SeededPatient } from '../src/server/test/portal-fixtures';
import { createStaffUser } from '../src/server/test/staff';
import { browserAvailable, launchBrowser, screenshot, watchConsole } from './support/browser';
import { signInThroughPage } from './support/fixtures';
import { startSeededApp } from './support/record-seed';
import type { RunningApp } from './support/server';

const run = browserAvailable();
const WIDTH = 375;
const PARAMEDIC = {
  firstName: 'Johannes',
  lastName: 'Ndeitunga',
  email: 'johannes.ndeitunga@health.gov.na',
  password: 'ambulance-oshakati-7',
  facility: 'Oshakati State Hospital',
};
const AUDITOR = { firstName: 'Hilma', lastName: 'Shikongo', email: 'hilma.shikongo@health.gov.na', password: 'auditor-windhoek-3' };
const REASON = 'Unconscious after a road accident on the B1';
const FLAG = "The patient lives in Khomas, outside the facility's region (Oshana)";

describe.skipIf(!run)('privacy review journey at 375 px', () => {
  let app: RunningApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let paramedic: Page;
  let auditor: Page;
  let patientPage: Page;
  const consoleErrors: string[] = [];
  let patient: SeededPatient;

  const newPage = async (): Promise<Page> => {
    const context = await browser.newContext({ locale: 'en-GB', viewport: { width: WIDTH, height: 800 }, isMobile: true, hasTouch: true });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors = watchConsole(page);
    page.on('close', () => consoleErrors.push(...errors));
    return page;
  };
  const noSideways = async (page: Page): Promise<void> => {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
  };

  beforeAll(async () => {
    const started = await startSeededApp(async (db) => {
      const para = await createStaffUser(db, { roleId: 403, ...PARAMEDIC });
      // A volume alert as the server raises it after a bulk search (decision 011), shown above the queue.
      await db.execute(sql`INSERT INTO security_events (user_id, event_type, severity, description, metadata)
        VALUES (${para.id}, 'BULK_SEARCH_ALERT', 'HIGH', 'bulk search',
          jsonb_build_object('count', 240, 'threshold', 200, 'minutes', 10, 'userName', 'Johannes Ndeitunga'))`);
      await createStaffUser(db, { roleId: 6, ...AUDITOR, facility: 'Windhoek Central Hospital' });
      const p = await insertPatient(db, {
        firstName: 'Ndinelao',
        lastName: 'Haufiku',
        dateOfBirth: '1990-07-21',
        address: '14 Nelson Mandela Avenue, Windhoek, Khomas',
      });
      await activatePatient(db, p); // the portal's PIN, set through the real activation (decision 016)
      return p;
    });
    app = started.app;
    patient = started.seeded;
    browser = await launchBrowser();
    paramedic = await newPage();
    auditor = await newPage();
    patientPage = await newPage();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.stop();
  });

  it('a paramedic finds the patient and breaks the glass with a reason', async () => {
    await signInThroughPage(paramedic, app.baseUrl, PARAMEDIC.email, PARAMEDIC.password);
    await paramedic.getByRole('radio', { name: /NC number/ }).click();
    await paramedic.getByLabel('NC number').fill(patient.ncNumber);
    await paramedic.getByRole('button', { name: 'Search Patients' }).click();
    await paramedic.getByRole('button', { name: /Haufiku, Ndinelao/ }).click();
    await paramedic.getByRole('radio', { name: 'No, but I have a valid reason' }).click();
    await paramedic.getByLabel(/^Reason for accessing without consent/).fill(REASON);
    await paramedic.getByRole('button', { name: 'Grant Access' }).click();
    await paramedic.getByRole('button', { name: 'Back to Search' }).waitFor();
    await paramedic.getByText(patient.ncNumber).first().waitFor();
  });

  async function patientSignIn(): Promise<void> {
    await patientPage.goto(`${app.baseUrl}/patient-login`);
    await patientPage.getByLabel('NC Number').fill(patient.ncNumber);
    await patientPage.getByLabel('Date of Birth').fill(patient.dateOfBirth);
    await patientPage.getByLabel('PIN', { exact: true }).fill(PATIENT_PIN);
    await patientPage.getByRole('button', { name: 'Access My Records' }).click();
    await patientPage.getByRole('heading', { name: 'Welcome, Ndinelao' }).waitFor();
  }
  const counter = (page: Page) =>
    page
      .locator('dl')
      .filter({ has: page.getByText('Emergency accesses awaiting review', { exact: true }) })
      .locator('dd');

  it('the patient sees one emergency access awaiting review', async () => {
    await patientSignIn();
    await expect.poll(() => counter(patientPage).textContent()).toBe('1');
    await noSideways(patientPage);
    await screenshot(patientPage, 'privacy-375-portal-overview-unreviewed');
    await patientPage.getByRole('tab', { name: 'Access history' }).click();
    const entry = patientPage.getByRole('listitem').filter({ hasText: REASON });
    await entry.getByText('Awaiting review').waitFor();
  });

  it('the auditor sees the count on the dashboard and the access flagged in the queue', async () => {
    await signInThroughPage(auditor, app.baseUrl, AUDITOR.email, AUDITOR.password);
    const counts = auditor.getByRole('region', { name: 'Emergency access reviews' });
    await expect.poll(() => counts.locator('dl > div').filter({ hasText: 'Unreviewed' }).locator('dd').textContent()).toBe('1');
    await noSideways(auditor);
    await screenshot(auditor, 'privacy-375-dashboard-counts');
    await counts.getByRole('button', { name: 'Open the review queue' }).click();
    await auditor.waitForURL('**/audit/reviews');
    expect(await auditor.getByRole('tab', { name: 'Emergency access review' }).getAttribute('aria-selected')).toBe('true');
    const card = auditor.getByRole('listitem').filter({ hasText: REASON });
    await card.getByText('Johannes Ndeitunga').waitFor();
    await card.getByText('Paramedic', { exact: true }).waitFor();
    await card.getByText('Oshakati State Hospital').waitFor();
    await card.getByText(FLAG).waitFor();
    await card.getByText('Not reviewed').waitFor();
    const alerts = auditor.getByRole('region', { name: 'Volume alerts' });
    // The paramedic's search found one more patient while the alert was open: it grew from 240 (decision 036).
    await alerts.getByText('Bulk search: the searches returned 241 different patients within 10 minutes (limit 200).').waitFor();
    await alerts.getByText(/^Count last updated /).waitFor();
    await alerts.getByText(/Johannes Ndeitunga/).waitFor();
    await noSideways(auditor);
    await screenshot(auditor, 'privacy-375-review-queue');
  });

  it('the auditor opens the access by keyboard, sees what was read, and is asked for a verdict and a note', async () => {
    const review = auditor.getByRole('button', { name: 'Review the access by Johannes Ndeitunga to Ndinelao Haufiku' });
    await review.focus();
    await auditor.keyboard.press('Enter');
    const heading = auditor.getByRole('heading', { name: 'Emergency access by Johannes Ndeitunga' });
    await heading.waitFor();
    expect(await heading.evaluate((el) => el === document.activeElement)).toBe(true);
    await auditor.getByText('What was read and changed during the access').waitFor();
    await auditor.getByRole('button', { name: 'Save verdict' }).click();
    await auditor.getByText('Choose a verdict').waitFor();
    await auditor.getByText('Write a note about your decision').waitFor();
    await noSideways(auditor);
    await screenshot(auditor, 'privacy-375-review-detail');
  });

  it('the auditor marks it justified, by keyboard, and the queue of unreviewed accesses is empty', async () => {
    await auditor.getByRole('radio', { name: /^Justified/ }).focus();
    await auditor.keyboard.press('Space');
    expect(await auditor.getByRole('radio', { name: /^Justified/ }).getAttribute('aria-checked')).toBe('true');
    await auditor.getByLabel(/^Note/).focus();
    await auditor.keyboard.type('Ambulance run sheet confirms the accident and the transfer.');
    await auditor.keyboard.press('Tab');
    expect(await auditor.evaluate(() => document.activeElement?.textContent)).toBe('Save verdict');
    await auditor.keyboard.press('Enter');
    await auditor.getByText('Verdict saved', { exact: true }).first().waitFor();
    await auditor.getByText('Verdicts so far').waitFor();
    await auditor.getByText('Ambulance run sheet confirms the accident and the transfer.').waitFor();
    await screenshot(auditor, 'privacy-375-review-detail-justified');
    await auditor.getByRole('button', { name: 'Back to the queue' }).click();
    await auditor.getByText('No emergency accesses match these filters.').waitFor();
  });

  it('the patient sees the verdict, in English and in Afrikaans, and no unreviewed accesses', async () => {
    await patientPage.reload();
    await patientPage.getByRole('heading', { name: 'Welcome, Ndinelao' }).waitFor();
    await expect.poll(() => counter(patientPage).textContent()).toBe('0');
    await patientPage.getByRole('tab', { name: 'Access history' }).click();
    const entry = patientPage.getByRole('listitem').filter({ hasText: REASON });
    await entry.getByText('Reviewed: justified').waitFor();
    expect(await patientPage.getByText('Ambulance run sheet').count()).toBe(0);
    await noSideways(patientPage);
    await screenshot(patientPage, 'privacy-375-portal-access-history-reviewed');

    await patientPage.getByRole('button', { name: /^Language: English/ }).click();
    await patientPage.getByRole('button', { name: /Afrikaans/ }).click();
    await patientPage.getByRole('tab', { name: 'Toegangsgeskiedenis' }).waitFor();
    await patientPage.getByRole('listitem').filter({ hasText: REASON }).getByText('Hersien: geregverdig').waitFor();
    await noSideways(patientPage);
    await screenshot(patientPage, 'privacy-375-portal-access-history-afrikaans');
  });

  it('ran without console errors', async () => {
    for (const c of contexts) for (const p of c.pages()) await p.close();
    expect(consoleErrors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
  });
});
