// The medicine checks' monthly report on the Audit screen (issue 25 item 5; decision 045), rendered against the real
// server for an auditor: this month at the doctor's facility, the alert shown and overridden once, with the reason, in
// Afrikaans; and the CSV of what is shown, formula-safe.
import '../../../test/dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import i18n from '../../../lib/i18n';
import { ROLE_IDS } from '../../../../contracts/constants';
import { amoxicillinOverride } from '../../../../server/test/medicine-override-fixture';
import { signInAs } from '../../../../server/test/staff';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { MedicineReportTab, medicineReportCsv } from './medicine-report-tab';

const server = realServer((t) => signInAs(t, ROLE_IDS.auditor).then((s) => s.cookie));
const reason = '=cmd|calc, toets negatief';

beforeAll(async () => {
  await amoxicillinOverride(server.t, reason);
});

describe('the monthly report', () => {
  it('shows the alert of this month, shown and overridden once, with the reason', async () => {
    await switchLanguage('af');
    renderWithApp(<MedicineReportTab />);
    const counts = (total: number, contraindicated: number) =>
      i18n.t('audit:medicineReport.counts', { total, contraindicated, serious: 0, minor: 0 });
    const month = new Date().toISOString().slice(0, 7);
    const list = await screen.findByRole('list', { name: i18n.t('audit:medicineReport.months') });
    expect(list.textContent).toContain(`${month} · Windhoek Central Hospital`);
    expect(list.textContent).toContain(`${i18n.t('audit:medicineReport.shown')}: ${counts(1, 1)}`);
    expect(list.textContent).toContain(`${i18n.t('audit:medicineReport.overridden')}: ${counts(1, 1)}`);
    expect(await screen.findByText(reason, { exact: false })).toBeTruthy();
    expect(screen.getByRole('button', { name: i18n.t('audit:medicineReport.csv') })).toBeTruthy();
  });

  it('writes the CSV with a line per month and facility and the reason quoted, never as a formula', () => {
    const csv = medicineReportCsv({
      from: '2026-11',
      to: '2026-11',
      facility: null,
      rows: [
        {
          month: '2026-11',
          facility: 'Windhoek Central Hospital',
          shown: { contraindicated: 1, serious: 0, minor: 0, total: 1 },
          overridden: { contraindicated: 1, serious: 0, minor: 0, total: 1 },
        },
      ],
      totals: {
        shown: { contraindicated: 1, serious: 0, minor: 0, total: 1 },
        overridden: { contraindicated: 1, serious: 0, minor: 0, total: 1 },
      },
      reasons: [{ month: '2026-11', facility: null, code: 'MEDICINE_ALLERGY_CONTRAINDICATED', reason, count: 1 }],
      reasonsTruncated: false,
    });
    const lines = csv.split('\r\n');
    expect(lines[1]).toBe('2026-11,Windhoek Central Hospital,1,0,0,1,1,0,0,1');
    expect(lines[4]).toBe(`2026-11,,MEDICINE_ALLERGY_CONTRAINDICATED,"'=cmd|calc, toets negatief",1`);
  });
});
