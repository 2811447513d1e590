// Journey at 375 px (issue 25 item 1): an administrator opens Admin > Immunization schedule by keyboard, sees the
// shipped file as current, loads a file with a problem (listed, focused), then the shipped file under a new version
// name, which becomes current. Screenshots go to e2e/artifacts/.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createStaffUser } from '../src/server/test/staff';
import { browserAvailable, screenshot } from './support/browser';
import { signInThroughPage } from './support/fixtures';
import { usePhonePage } from './support/phone-journey';

const run = browserAvailable();
const ADMIN = { firstName: 'Selma', lastName: 'Amupolo', email: 'selma.amupolo@health.gov.na', password: 'schedule-keeper-7' };
const shipped = JSON.parse(readFileSync('catalogues/immunization-schedule.json', 'utf8')) as Record<string, unknown>;
const file = (content: Record<string, unknown>) => ({
  name: 'schedule.json',
  mimeType: 'application/json',
  buffer: Buffer.from(JSON.stringify(content)),
});

describe.skipIf(!run)('immunization schedule journey at 375 px', () => {
  const j = usePhonePage((db) => createStaffUser(db, { roleId: 2, ...ADMIN, facility: 'Windhoek Central Hospital' }));
  const noSideways = () => j.noSideways();

  it('refuses a bad file with its problems and loads a new version, by keyboard', async () => {
    const { page } = j;
    await signInThroughPage(page, j.app.baseUrl, ADMIN.email, ADMIN.password);
    await page.getByRole('button', { name: 'Admin', exact: true }).click();
    await page.getByRole('tab', { selected: true }).focus();
    const tab = page.getByRole('tab', { name: 'Immunization schedule' });
    // One arrow at a time, each waited for: on a busy machine a second press could land before the first one's
    // selection is drawn and pass the tab by.
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    for (let i = 0; i < 8 && (await tab.getAttribute('aria-selected')) !== 'true'; i++) {
      const before = await focusedText();
      await page.keyboard.press('ArrowRight');
      await expect.poll(focusedText).not.toBe(before);
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-selected'))).toBe('true');
    }
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
    expect(j.consoleErrors.filter((e) => !/status of 40[0139]/.test(e))).toEqual([]);
  });
});
