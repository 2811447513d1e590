import '../../../test/dom';
// Add Patient (SPEC §2, §5, §8) rendered with Testing Library against the real server: a new patient gets an NC
// number and a one-time portal code on the slip; the same person again is shown as a likely duplicate and added
// only when the receptionist confirms; each add is one CREATE audit row.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../../contracts/constants';
import { signInAs } from '../../../../server/test/staff';
import { queryRows } from '../../../../server/test/sql';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { AddPatientForm } from './add-patient-form';

const server = realServer(async (t) => {
  const receptionist = await signInAs(t, ROLE_IDS.receptionist);
  return receptionist.cookie;
});

const label = (key: string) => (content: string) => content.replace(/\s*\*$/, '').trim() === i18n.t(`patients:${key}`);
const patientsNamed = async (lastName: string) =>
  queryRows<{ id_number: string }>(server.t.db, sql`SELECT id_number FROM patients WHERE last_name = ${lastName} ORDER BY id`);
const creates = async () =>
  (await queryRows(server.t.db, sql`SELECT 1 FROM audit_logs WHERE action = 'CREATE' AND resource_type = 'PATIENT'`)).length;

async function fillAndSubmit(user: ReturnType<typeof userEvent.setup>): Promise<HTMLElement> {
  const form = screen.getByRole('form', { name: i18n.t('patients:title') });
  await user.type(within(form).getByLabelText(label('firstName')), 'Ndapandula');
  await user.type(within(form).getByLabelText(label('lastName')), 'Amutenya');
  await user.type(within(form).getByLabelText(label('dateOfBirth')), '1986-07-14');
  await user.selectOptions(within(form).getByLabelText(label('sex')), 'Female');
  await user.click(within(form).getByRole('button', { name: i18n.t('patients:submit') }));
  return form;
}

describe('Add Patient form', () => {
  it('refuses a form without the required fields, sending nothing', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    renderWithApp(<AddPatientForm />);
    await user.click(screen.getByRole('button', { name: i18n.t('patients:submit') }));
    const firstName = screen.getByLabelText(label('firstName'));
    await waitFor(() => expect(firstName.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByLabelText(label('sex')).getAttribute('aria-invalid')).toBe('true');
    expect(server.transport.sent).toEqual([]);
  });

  it('adds a patient and shows the NC number and the portal code once', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    renderWithApp(<AddPatientForm />);
    await fillAndSubmit(user);
    await waitFor(async () => expect(await patientsNamed('Amutenya')).toHaveLength(1));
    const [stored] = await patientsNamed('Amutenya');
    expect(await screen.findByText(i18n.t('patients:created', { name: 'Ndapandula Amutenya', idNumber: stored!.id_number }))).toBeTruthy();
    expect(server.transport.sent.map((r) => [r.method, r.url, r.status])).toEqual([['POST', '/api/admin/patients', 201]]);
    expect(await creates()).toBe(1);
  });

  it('shows the same person as a likely duplicate (in Afrikaans) and adds only when confirmed', async () => {
    await switchLanguage('af');
    const user = userEvent.setup();
    renderWithApp(<AddPatientForm />);
    const form = await fillAndSubmit(user);
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain(i18n.t('patients:duplicates.title'));
    expect(alert.textContent).toContain('Amutenya, Ndapandula');
    expect(await patientsNamed('Amutenya')).toHaveLength(1);
    expect(server.transport.sent.map((r) => r.status)).toEqual([409]);

    await user.click(within(alert).getByRole('button', { name: i18n.t('patients:duplicates.addAnyway') }));
    await waitFor(async () => expect(await patientsNamed('Amutenya')).toHaveLength(2));
    const second = (await patientsNamed('Amutenya'))[1]!;
    expect(await screen.findByText(i18n.t('patients:created', { name: 'Ndapandula Amutenya', idNumber: second.id_number }))).toBeTruthy();
    expect(server.transport.sent.at(-1)).toMatchObject({
      method: 'POST',
      status: 201,
      body: expect.objectContaining({ confirmDuplicate: true }),
    });
    expect(await creates()).toBe(2);
  });
});
