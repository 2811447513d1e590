// The Medical Dashboard's overdue and due doses (issue 25 item 2), rendered against the real server: a child with an
// overdue dose sees it on the dashboard with its reason, in Afrikaans, from the one status request the vaccines
// section shares, and the button takes keyboard focus to the vaccines section's schedule; an adult with nothing due
// sees nothing.
import '../../../test/dom';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { addDays, todayIso } from '../../../../contracts/calendar';
import { CVX_SYSTEM } from '../../../../contracts/code-systems';
import { createPatient } from '../../../../server/test/patient-fixtures';
import { confirmAccess, recordApi } from '../../../../server/test/record-api';
import { realServerWithRecord } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { immunizationStatusQueryOptions } from '../api/immunization-status';
import { reasonText } from './immunization-status';
import { PatientRecord } from './patient-record';

const server = realServerWithRecord();
const statusRequests = () => server.transport.sent.filter((r) => r.url.endsWith('/immunization-status'));

describe("the dashboard's doses", () => {
  it('show a child’s overdue dose with its reason in Afrikaans, and lead by keyboard to the vaccines', async () => {
    const dob = addDays(todayIso(), -100); // about 14 weeks old: Pentavalent 2 was due at 10 weeks
    const child = await createPatient(server.t.db, { firstName: 'Ndapewa', lastName: 'Shikongo', dateOfBirth: dob });
    await confirmAccess(server.t, server.cookie, child.id);
    const penta1 = {
      vaccine: 'Pentavalent',
      code: '198',
      codeSystem: CVX_SYSTEM,
      date: addDays(dob, 42),
      dose: '1',
      facility: 'Katutura State Hospital',
    };
    expect((await recordApi(server.t, server.cookie).add('vaccines', child.id, penta1)).statusCode).toBe(201);
    await switchLanguage('af');
    const user = userEvent.setup();
    renderWithApp(<PatientRecord patientId={child.id} onBack={() => {}} canEdit={false} />);

    const panel = await screen.findByRole('region', { name: i18n.t('record:dashboard.doses.title') });
    const overdue = within(panel).getByRole('list', { name: /agterstallig$/ });
    const penta2 = within(overdue)
      .getAllByRole('listitem')
      .find((li) => li.textContent?.startsWith('Pentavalent 2'))!;
    expect(penta2.textContent).toBe(
      `Pentavalent 2: ${reasonText(i18n.t, { code: 'OVERDUE', params: { weeks: 4, date: addDays(dob, 70) } })}`,
    );
    expect(penta2.textContent).toContain('4 weke agterstallig');
    expect(statusRequests()).toHaveLength(1);

    const go = within(panel).getByRole('button', { name: i18n.t('record:dashboard.doses.open') });
    go.focus();
    await user.keyboard('{Enter}');
    const title = await screen.findByRole('heading', { name: i18n.t('record:immunization.title') });
    await waitFor(() => expect(document.activeElement).toBe(title));
  });

  it('show nothing for an adult with no dose overdue or due', async () => {
    await switchLanguage('en');
    const { queryClient } = renderWithApp(<PatientRecord patientId={server.patient.id} onBack={() => {}} canEdit={false} />);
    await screen.findByRole('heading', { name: i18n.t('record:dashboard.title') });
    const key = immunizationStatusQueryOptions(server.patient.id).queryKey;
    await waitFor(() => expect(queryClient.getQueryState(key)?.status).toBe('success'));
    expect(screen.queryByRole('region', { name: i18n.t('record:dashboard.doses.title') })).toBeNull();
    expect(screen.queryByText(i18n.t('record:immunization.loadFailed'))).toBeNull();
  });
});
