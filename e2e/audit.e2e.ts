// Journey: an auditor filters the audit log by SEARCH, generates a HIPAA report and downloads it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserAvailable, screenshot } from './support/browser';
import { axeViolations } from './support/axe';
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
    // Archive by keyboard asks first (issue 21 item 15): Cancel changes nothing and focus goes back to the button.
    const archiveButton = row.getByRole('button', { name: 'Archive HIPAA review November' });
    await archiveButton.focus();
    await j.page.keyboard.press('Enter');
    const confirm = j.page.getByRole('dialog', { name: 'Archive this report?' });
    await confirm.waitFor();
    await screenshot(j.page, 'compliance-report-archive-confirm-375');
    // Cancel by keyboard (not Escape: a toast still on screen may take the Escape key first).
    await confirm.getByRole('button', { name: 'Cancel' }).focus();
    await j.page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    await row.waitFor();
    await j.page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Archive HIPAA review November');
    // Confirmed: the row goes, focus lands on the report list, and the empty list says so.
    await j.page.keyboard.press('Enter');
    await confirm.getByRole('button', { name: 'Archive report' }).click();
    await row.waitFor({ state: 'detached' });
    await j.page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Compliance reports');
    await j.page.getByText('No compliance reports yet.').waitFor();
    // The Archived filter lists it with a way back; Restore brings it back into the list.
    await j.page.getByLabel('Status').selectOption('ARCHIVED');
    const archivedRow = j.page.getByRole('row').filter({ hasText: 'HIPAA review November' });
    await archivedRow.getByText('Archived').waitFor();
    await archivedRow.getByRole('button', { name: 'Restore HIPAA review November' }).click();
    await j.page.getByText('No archived reports.').waitFor();
    await j.page.getByLabel('Status').selectOption('all');
    await j.page.getByRole('row').filter({ hasText: 'HIPAA review November' }).getByText('Completed').waitFor();
    // A toast on screen while a dialog is open covers none of the dialog's buttons on a phone (item 17).
    await row.getByRole('button', { name: 'Archive HIPAA review November' }).click();
    await confirm.waitFor();
    await j.page.getByText('Report restored: HIPAA review November', { exact: true }).waitFor();
    for (const name of ['Cancel', 'Archive report']) {
      const box = (await confirm.getByRole('button', { name }).boundingBox())!;
      const hit = await j.page.evaluate(
        ([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.textContent?.trim() ?? '',
        [box.x + box.width / 2, box.y + box.height / 2],
      );
      expect(hit).toBe(name);
    }
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await j.page.getByLabel('Status').selectOption('DRAFT');
    await j.page.getByText('No reports match this filter.').waitFor();
    // The audit log's table scrolls sideways by keyboard at 375 px, and neither tab has an axe violation (item 17).
    expect(await axeViolations(j.page)).toEqual([]);
    await j.page.getByRole('tab', { name: 'Audit Logs' }).click();
    await j.page.getByRole('region', { name: 'Audit entries table' }).waitFor();
    expect(await axeViolations(j.page)).toEqual([]);
  });

  it('ran without console errors', () => {
    expect(j.consoleErrors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
  });
});
