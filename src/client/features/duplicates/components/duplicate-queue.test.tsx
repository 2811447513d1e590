import '../../../test/dom';
// The duplicate review queue rendered against the real server (issue 24 item 3): a Health Information Officer runs
// the matcher, sees a planted pair side by side with the differing field marked and the reasons, in Afrikaans too,
// and records "not the same person" with a reason by keyboard; the pair leaves the queue.
import { describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../../contracts/constants';
import { createPatient } from '../../../../server/test/patient-fixtures';
import { queryRows } from '../../../../server/test/sql';
import { signInAs } from '../../../../server/test/staff';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { DuplicateQueue } from './duplicate-queue';

const queueProps = { describeRow: () => ({ title: '', lines: [] }), canOpenRecords: false, userName: 'Loide Haimbodi' };

const server = realServer(async (t) => {
  await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' });
  await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Nghipondka', dateOfBirth: '1984-03-09' });
  return (await signInAs(t, ROLE_IDS.healthInformationOfficer)).cookie;
});

describe('the duplicate review queue', () => {
  it('runs the matcher, shows the pair side by side, and records "not the same person" by keyboard', async () => {
    await switchLanguage('af');
    const user = userEvent.setup();
    renderWithApp(<DuplicateQueue {...queueProps} />);
    await user.click(await screen.findByRole('button', { name: i18n.t('dashboard:duplicates.run') }));
    await waitFor(async () =>
      expect((await queryRows<{ status: string }>(server.t.db, sql`SELECT status FROM duplicate_scans`))[0]?.status).toBe('done'),
    );
    // A new view of the queue after the run (the open one refreshes when its progress poll sees the run end).
    cleanup();
    renderWithApp(<DuplicateQueue {...queueProps} />);
    const form = await screen.findByRole('form', { name: i18n.t('dashboard:duplicates.decisionLabel', { id: 1 }) });
    const card = form.closest('li')!;
    expect(within(card).getByText(i18n.t('dashboard:duplicates.band.very-likely'))).toBeTruthy();
    // The surname differs: marked (a visually hidden word for screen readers), the first name does not.
    expect(within(card).getAllByText(`(${i18n.t('dashboard:duplicates.differs')})`, { exact: false })).toHaveLength(2);
    expect(within(card).getByText(new RegExp(i18n.t('dashboard:duplicates.agreement.typo')))).toBeTruthy();

    const reason = within(form).getByRole('textbox');
    await user.click(reason);
    await user.keyboard('Susters, by die toonbank nagegaan');
    await user.tab();
    expect(document.activeElement).toBe(within(form).getByRole('button', { name: i18n.t('dashboard:duplicates.different') }));
    await user.keyboard('{Enter}');
    await waitFor(async () =>
      expect(await queryRows(server.t.db, sql`SELECT status, decision_reason FROM duplicate_pairs`)).toEqual([
        { status: 'different', decision_reason: 'Susters, by die toonbank nagegaan' },
      ]),
    );
    expect(await screen.findAllByText(i18n.t('dashboard:duplicates.empty'))).not.toHaveLength(0);
  });
});
