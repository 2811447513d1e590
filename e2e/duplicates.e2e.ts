// Journey at 375 px (issue 24 item 3): a Health Information Officer opens Admin > Duplicates, runs the matcher, finds
// a planted pair (a surname typo) side by side with the differing surname marked, and by keyboard records that they
// are not the same person; the queue is then empty. In Afrikaans too. Screenshots go to e2e/artifacts/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { insertPatient } from '../src/server/test/portal-fixtures';
import { createStaffUser } from '../src/server/test/staff';
import { browserAvailable, launchBrowser, screenshot, watchConsole } from './support/browser';
import { signInThroughPage } from './support/fixtures';
import { startSeededApp } from './support/record-seed';
import type { RunningApp } from './support/server';

const run = browserAvailable();
const WIDTH = 375;
const OFFICER = { firstName: 'Loide', lastName: 'Haimbodi', email: 'loide.haimbodi@health.gov.na', password: 'registry-clean-up-9' };

describe.skipIf(!run)('duplicate review journey at 375 px', () => {
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[] = [];

  beforeAll(async () => {
    const started = await startSeededApp(async (db) => {
      await createStaffUser(db, { roleId: 7, ...OFFICER, facility: 'Oshakati State Hospital' });
      await insertPatient(db, { firstName: 'Ndapewa', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' });
      await insertPatient(db, { firstName: 'Ndapewa', lastName: 'Nghipondka', dateOfBirth: '1984-03-09' });
    });
    app = started.app;
    browser = await launchBrowser();
    context = await browser.newContext({ locale: 'en-GB', viewport: { width: WIDTH, height: 800 }, isMobile: true, hasTouch: true });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    consoleErrors = watchConsole(page);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  const noSideways = async (): Promise<void> => {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
  };

  it('runs the matcher and shows the planted pair side by side', async () => {
    await signInThroughPage(page, app.baseUrl, OFFICER.email, OFFICER.password);
    await page.getByRole('button', { name: 'Admin' }).click();
    await page.getByRole('tab', { name: 'Duplicates' }).click();
    await page.getByRole('button', { name: 'Check the registry for duplicates' }).click();
    await page.getByText(/Checked 2 patients: 1 pairs found/).waitFor();
    const card = page.getByRole('listitem').filter({ hasText: 'Very likely the same' });
    await card.getByRole('heading', { name: 'Ndapewa Nghipondoka and Ndapewa Nghipondka' }).waitFor();
    expect(await card.getByText('(differs)').count()).toBe(2);
    await card.getByText(/Surname: one or two letters differ/).waitFor();
    await noSideways();
    await screenshot(page, 'duplicates-375-queue');
  });

  it('records "not the same person" by keyboard, and the queue is empty', async () => {
    const card = page.getByRole('listitem').filter({ hasText: 'Very likely the same' });
    await card.getByRole('textbox').focus();
    await page.keyboard.type('Cousins, checked at the desk');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText('No open pairs.').waitFor();
    await noSideways();
  });

  it('reads in Afrikaans', async () => {
    await page.getByRole('button', { name: /^Language: English/ }).click();
    await page.getByRole('button', { name: /Afrikaans/ }).click();
    await page.getByText('Geen oop pare nie.').waitFor();
    await noSideways();
    await screenshot(page, 'duplicates-375-afrikaans');
    expect(consoleErrors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
  });
});
