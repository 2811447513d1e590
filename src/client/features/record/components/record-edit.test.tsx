// Editing an entry in place (issue 23), rendered with Testing Library against the real server (inject, a real
// database): the Edit action opens the add form filled from the entry; Save is one PATCH naming the entry's version
// in If-Match, whose answer replaces the entry in the list. When someone else saved the entry meanwhile, the server
// refuses (409 VERSION_CONFLICT) and changes nothing; the form says so in the user's language, names the changed
// fields by their labels, and loads the current version only when asked.
import '../../../test/dom';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import type { MedicationRow } from '../../../../contracts/kinds';
import { recordApi } from '../../../../server/test/record-api';
import { METFORMIN } from '../../../../server/test/record-samples';
import { queryOne } from '../../../../server/test/sql';
import { realServerWithRecord } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { RecordListSection } from './record-list-section';

const server = realServerWithRecord();

async function addMedication(medication: typeof METFORMIN): Promise<MedicationRow> {
  const res = await recordApi(server.t, server.cookie).add('medications', server.patient.id, medication);
  expect(res.statusCode).toBe(201);
  return res.json<MedicationRow>();
}

const stored = (id: number) =>
  queryOne<{ dosage: string; frequency: string; version: number }>(
    server.t.db,
    sql`SELECT dosage, frequency, version FROM medications WHERE id = ${id}`,
  );

/** The medications list in edit mode, and the Edit dialog of `title` opened from it. */
async function openEdit(title: string) {
  const user = userEvent.setup();
  renderWithApp(<RecordListSection kind="medications" patientId={server.patient.id} editing addOpen={false} onAddOpenChange={() => {}} />);
  const list = await screen.findByRole('list', { name: i18n.t('record:sections.medications') });
  await user.click(within(list).getByRole('button', { name: i18n.t('record:actions.editLabel', { name: title }) }));
  const dialog = await screen.findByRole('dialog', { name: i18n.t('record:edit.medications') });
  const field = (key: string) => {
    const name = i18n.t(`record:fields.${key}`);
    return within(dialog).getByLabelText((content) => content.replace(/\s*\*$/, '').trim() === name) as HTMLInputElement;
  };
  const save = () => user.click(within(dialog).getByRole('button', { name: i18n.t('record:form.save') }));
  return { user, list, dialog, field, save };
}

describe('Edit an entry', () => {
  it('opens the add form filled from the entry and saves it with one PATCH naming its version; the list shows the edit', async () => {
    await switchLanguage('en');
    const row = await addMedication(METFORMIN);
    expect(row.version).toBe(1);
    const { user, list, dialog, field, save } = await openEdit('Metformin - 500mg');
    expect(field('name').value).toBe('Metformin');
    expect(field('dosage').value).toBe('500mg');
    expect(field('prescribedDate').value).toBe('01/02/2024');
    server.transport.sent.length = 0;

    await user.clear(field('dosage'));
    await user.type(field('dosage'), '1000mg');
    await save();

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Reads the form makes meanwhile (code look-ups, the medicine checks' status) are not part of the save.
    const patches = server.transport.sent.filter((r) => r.method !== 'GET');
    expect(patches.map((r) => [r.method, r.url, r.status, r.headers['if-match']])).toEqual([
      ['PATCH', `/api/medications/${row.id}`, 200, '"1"'],
    ]);
    expect(patches[0]!.body).toMatchObject({ ...METFORMIN, dosage: '1000mg' });
    await within(list).findByText('Metformin - 1000mg');
    expect(within(list).queryByText('Metformin - 500mg')).toBeNull();
    expect(await stored(row.id)).toEqual({ dosage: '1000mg', frequency: 'Twice daily', version: 2 });
    expect(await screen.findByText(i18n.t('record:toast.edited.medications'))).toBeTruthy();
    expect(dialog.isConnected).toBe(false);
  });

  it('a stale version: says so in Afrikaans, names what changed, keeps the edit out, and loads the current version when asked', async () => {
    await switchLanguage('af');
    const amlodipine = { ...METFORMIN, name: 'Amlodipine', dosage: '5mg', frequency: 'Twice daily', purpose: 'Hypertension' };
    const row = await addMedication(amlodipine);
    const { user, list, dialog, field, save } = await openEdit('Amlodipine - 5mg');
    // Someone else saves the entry while this form is open.
    const other = await server.t.app.inject({
      method: 'PATCH',
      url: `/api/medications/${row.id}`,
      headers: { cookie: server.cookie, 'if-match': '"1"' },
      payload: { ...amlodipine, dosage: '10mg' },
    });
    expect(other.statusCode).toBe(200);
    server.transport.sent.length = 0;

    await user.clear(field('frequency'));
    await user.type(field('frequency'), 'Once daily');
    await save();

    const alert = await within(dialog).findByRole('alert', { name: i18n.t('record:conflict.title') });
    expect(i18n.t('record:conflict.title')).not.toBe('Someone else changed this entry while you were editing it.');
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect(alert.textContent).toContain(`${i18n.t('record:fields.dosage')}:`);
    expect(alert.textContent).toContain('10mg');
    expect(alert.textContent).not.toContain(i18n.t('record:fields.frequency'));
    // The list's refresh reads (the medicines' details, decision 045) are not part of the save.
    const writes = server.transport.sent.filter((r) => r.method !== 'GET');
    expect(writes.map((r) => [r.method, r.status, r.headers['if-match']])).toEqual([['PATCH', 409, '"1"']]);
    // Nothing of this edit was stored; the form still holds what the user typed; the list shows the entry as stored now.
    expect(await stored(row.id)).toEqual({ dosage: '10mg', frequency: 'Twice daily', version: 2 });
    expect(field('frequency').value).toBe('Once daily');
    await within(list).findByText('Amlodipine - 10mg');

    await user.click(within(alert).getByRole('button', { name: i18n.t('record:conflict.load') }));
    await waitFor(() => expect(field('dosage').value).toBe('10mg'));
    expect(field('frequency').value).toBe('Twice daily');
    expect(within(dialog).getByRole('status').textContent).toBe(i18n.t('record:conflict.loaded'));
    await waitFor(() => expect(document.activeElement).toBe(field('name')));

    await user.clear(field('frequency'));
    await user.type(field('frequency'), 'Once daily');
    await save();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.transport.sent.filter((r) => r.method === 'PATCH').map((r) => [r.status, r.headers['if-match']])).toEqual([
      [409, '"1"'],
      [200, '"2"'],
    ]);
    expect(await stored(row.id)).toEqual({ dosage: '10mg', frequency: 'Once daily', version: 3 });
  });
});
