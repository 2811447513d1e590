// Journey: an auditor filters the audit log by SEARCH, generates a HIPAA report and downloads it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserAvailable, screenshot } from './support/browser';
import { useJourney } from './support/journey';
import { ADMIN, apiPost, apiSignIn, createApprovedStaff, createFirstAdmin, signInThroughPage } from './support/fixtures';

const run = browserAvailable();
const AUDITOR = { firstName: 'Selma', lastName: 'Haufiku', email: 'selma.haufiku@health.gov.na', password: 'ledger-and-chain', roleId: 6 };
const DOCTOR = { firstName: 'Tangeni', lastName: 'Amutenya', email: 'tangeni@health.gov.na', password: 'stethoscope-42', roleId: 3 };

describe.skipIf(!run)('audit and compliance journey', () => {
  const j = useJourney({
    prepare: async (app) => {
      await createFirstAdmin(app.baseUrl);
      const admin = await apiSignIn(app.baseUrl, ADMIN.email, ADMIN.password);
      await createApprovedStaff(app.baseUrl, admin, AUDITOR);
      await createApprovedStaff(app.baseUrl, admin, DOCTOR);
      // The doctor searches twice: these are the SEARCH rows the auditor must find.
      const doctor = await apiSignIn(app.baseUrl, DOCTOR.email, DOCTOR.password);
      await apiPost(app.baseUrl, doctor, '/api/patients/search', { method: 'id-number', idNumber: '12345678903' });
      await apiPost(app.baseUrl, doctor, '/api/patients/search', { method: 'name-dob', lastName: 'Shikongo', dateOfBirth: '1980-04-12' });
    },
    acceptDownloads: true,
  });

  it('shows the auditor the Audit button but not Admin', async () => {
    await signInThroughPage(j.page, j.app.baseUrl, AUDITOR.email, AUDITOR.password);
    await j.page.getByRole('button', { name: 'Audit', exact: true }).waitFor();
    expect(await j.page.getByRole('button', { name: 'Admin', exact: true }).count()).toBe(0);
  });

  it('filters the log by SEARCH and sees the doctor’s searches', async () => {
    await j.page.getByRole('button', { name: 'Audit', exact: true }).click();
    await j.page.getByRole('heading', { name: 'Audit and Compliance' }).waitFor();
    await j.page.getByLabel('Action').selectOption('SEARCH');
    await j.page.getByRole('button', { name: 'Apply Filters' }).click();
    const rows = j.page.getByRole('row').filter({ hasText: 'Tangeni Amutenya' });
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    expect(await j.page.getByRole('row').filter({ hasText: 'VIEW' }).count()).toBe(0);
    await screenshot(j.page, 'audit-logs-search');
  });

  it('asks for the required fields, then generates a HIPAA report and downloads it', async () => {
    await j.page.getByRole('tab', { name: 'Compliance Reports' }).click();
    await j.page.getByRole('button', { name: 'Generate Report' }).click();
    await j.page.getByText('Please fill in all required fields').waitFor();
    const today = new Date().toISOString().slice(0, 10);
    await j.page.getByLabel(/^Title/).fill('HIPAA review November');
    await j.page.getByLabel(/^Date from/).fill('2020-01-01');
    await j.page.getByLabel(/^Date to/).fill(today);
    await j.page.getByRole('button', { name: 'Generate Report' }).click();
    const row = j.page.getByRole('row').filter({ hasText: 'HIPAA review November' });
    await row.waitFor();
    await row.getByText('Completed').waitFor();
    await screenshot(j.page, 'compliance-reports');
    const [download] = await Promise.all([
      j.page.waitForEvent('download'),
      row.getByRole('button', { name: 'Download HIPAA review November' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^HIPAA_review_November_\d+\.json$/);
    const data = JSON.parse(readFileSync((await download.path())!, 'utf8')) as Record<string, unknown>;
    const cookie = await apiSignIn(j.app.baseUrl, AUDITOR.email, AUDITOR.password);
    const reports = (await (await fetch(`${j.app.baseUrl}/api/compliance-reports`, { headers: { cookie } })).json()) as {
      id: number;
      title: string;
    }[];
    const stored = reports.find((r) => r.title === 'HIPAA review November');
    const streamed = await fetch(`${j.app.baseUrl}/api/compliance-reports/${stored!.id}/download`, { headers: { cookie } });
    expect(data).toEqual(await streamed.json());
    // At 375 px: the archive button is reachable and the page does not scroll sideways (the table scrolls itself).
    await j.page.setViewportSize({ width: 375, height: 800 });
    expect(await j.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(j.page, 'compliance-reports-375');
    // Archive by keyboard: the row goes, focus lands on the report list.
    const archiveButton = row.getByRole('button', { name: 'Archive HIPAA review November' });
    await archiveButton.focus();
    await j.page.keyboard.press('Enter');
    await row.waitFor({ state: 'detached' });
    expect(await j.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Compliance reports');
  });

  it('ran without console errors', () => {
    expect(j.consoleErrors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
  });
});
