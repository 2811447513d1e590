// Journey at 375 px (issue 25 item 1): an administrator opens Admin > Immunization schedule by keyboard, sees the
// shipped file as current, loads a file with a problem (listed, focused), then the shipped file under a new version
// name, which becomes current. Screenshots go to e2e/artifacts/.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createStaffUser } from '../src/server/test/staff';
import { browserAvailable, launchBrowser, screenshot, watchConsole } from './support/browser';
import { signInThroughPage } from './support/fixtures';
import { startSeededApp } from './support/record-seed';
import type { RunningApp } from './support/server';

const run = browserAvailable();
const WIDTH = 375;
const ADMIN = { firstName: 'Selma', lastName: 'Amupolo', email: 'selma.amupolo@health.gov.na', password: 'schedule-keeper-7' };
const shipped = JSON.parse(readFileSync('catalogues/immunization-schedule.json', 'utf8')) as Record<string, unknown>;
const file = (content: Record<string, unknown>) => ({
  name: 'schedule.json',
  mimeType: 'application/json',
  buffer: Buffer.from(JSON.stringify(content)),
});

describe.skipIf(!run)('immunization schedule journey at 375 px', () => {
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[] = [];

  beforeAll(async () => {
    app = (await startSeededApp((db) => createStaffUser(db, { roleId: 2, ...ADMIN, facility: 'Windhoek Central Hospital' }))).app;
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

  it('refuses a bad file with its problems and loads a new version, by keyboard', async () => {
    await signInThroughPage(page, app.baseUrl, ADMIN.email, ADMIN.password);
    await page.getByRole('button', { name: 'Admin', exact: true }).click();
    await page.getByRole('tab', { selected: true }).focus();
    const tab = page.getByRole('tab', { name: 'Immunization schedule' });
    for (let i = 0; i < 6 && (await tab.getAttribute('aria-selected')) !== 'true'; i++) await page.keyboard.press('ArrowRight');
    await page.getByText('The file shipped with the app (no version loaded yet)').waitFor();
    await noSideways();

    const input = page.getByLabel('Schedule file (JSON)');
    await input.setInputFiles(file({ ...shipped, overdueAfter: 'two weeks' }));
    await input.focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const alert = page.getByRole('alert').filter({ hasText: 'overdueAfter: Write an age' });
    await alert.waitFor();
    expect(await alert.evaluate((el) => el === document.activeElement)).toBe(true);
    await noSideways();
    await screenshot(page, 'immunization-schedule-375-refused');

    await input.setInputFiles(file({ ...shipped, version: 'NA-EPI-2027.1' }));
    await input.focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText('Version NA-EPI-2027.1 is loaded and is now the current schedule.').waitFor();
    await page
      .getByRole('listitem')
      .first()
      .getByText(/Loaded .* by Selma Amupolo/)
      .waitFor();
    await noSideways();
    await screenshot(page, 'immunization-schedule-375-loaded');
    expect(consoleErrors.filter((e) => !/status of 40[0139]/.test(e))).toEqual([]);
  });
});
