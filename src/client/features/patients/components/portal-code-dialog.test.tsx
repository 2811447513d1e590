import '../../../test/dom';
// The desk's Portal code dialog (issue 21 item 1, decision 031) against the real server, as a second receptionist:
// a live code another desk issued for a portal that already has a PIN is shown (never the code) with the button that
// confirms the reset (two-person rule); the confirmation is stored and the dialog says who confirmed it.
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../../contracts/constants';
import { activatePatient, insertPatient, issueActivationCode } from '../../../../server/test/portal-fixtures';
import { queryOne } from '../../../../server/test/sql';
import { createStaffUser, signIn } from '../../../../server/test/staff';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { PortalCodeDialog } from './portal-code-dialog';

const server = realServer(async (t) => {
  const user = await createStaffUser(t.db, { roleId: ROLE_IDS.receptionist, firstName: 'Martha', lastName: 'Second' });
  return signIn(t.app, user.email, user.password);
});

describe('Portal code dialog: the two-person reset', () => {
  it('shows the code another desk issued for an active portal and confirms the reset', async () => {
    await switchLanguage('en');
    const p = await insertPatient(server.t.db, { firstName: 'Ndeshi', lastName: 'Haufiku' });
    await activatePatient(server.t.db, p);
    const { code } = await issueActivationCode(server.t.db, p.id);
    const user = userEvent.setup();
    renderWithApp(
      <PortalCodeDialog
        patient={{
          id: p.id,
          firstName: p.firstName,
          lastName: p.lastName,
          dateOfBirth: p.dateOfBirth,
          idNumber: p.ncNumber,
          sex: 'Female',
          address: '',
        }}
        onClose={() => {}}
      />,
    );
    const status = await screen.findByTestId('portal-status');
    await waitFor(() => expect(status.textContent).toContain('Front Desk'));
    expect(status.textContent).toContain(i18n.t('patients:portalStatus.active'));
    expect(document.body.textContent).not.toContain(code);
    await user.click(screen.getByRole('button', { name: i18n.t('patients:portalStatus.confirm') }));
    await waitFor(() => expect(status.textContent).toContain('Martha Second'));
    const row = await queryOne<{ reset_confirmed_by: string | null }>(
      server.t.db,
      sql`SELECT reset_confirmed_by FROM patient_portal_credentials WHERE patient_id = ${p.id}`,
    );
    expect(row!.reset_confirmed_by).not.toBeNull();
    expect(server.transport.sent.map((r) => [r.method, r.url, r.status])).toEqual([
      ['GET', `/api/patients/${p.id}/portal-status`, 200],
      ['POST', `/api/patients/${p.id}/portal-reset/confirm`, 200],
    ]);
  });
});
