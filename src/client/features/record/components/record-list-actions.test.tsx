// "Entered in error" and an entry's history (issue 23), rendered with Testing Library against the real server (inject,
// a real database): marking an entry needs a reason (the client says so before any request), is one DELETE carrying
// it, takes the entry off the list and sends focus to the section's heading, and keeps the row, with the reason; the
// History action lists every version in the user's language, with what was done, by whom, what changed and why.
import '../../../test/dom';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import type { DiagnosisRow } from '../../../../contracts/kinds';
import { recordApi } from '../../../../server/test/record-api';
import { queryOne } from '../../../../server/test/sql';
import { realServerWithRecord } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { RecordListSection } from './record-list-section';

const server = realServerWithRecord();

const DIAGNOSIS = {
  status: 'Active',
  diagnosedDate: '2024-01-15',
  doctor: 'Dr. Ndapewa Nghifindaka',
  facility: 'Oshakati Intermediate Hospital',
};

async function addDiagnosis(condition: string): Promise<DiagnosisRow> {
  const res = await recordApi(server.t, server.cookie).add('diagnoses', server.patient.id, { ...DIAGNOSIS, condition });
  expect(res.statusCode).toBe(201);
  return res.json<DiagnosisRow>();
}

function renderList(editing: boolean) {
  renderWithApp(
    <RecordListSection kind="diagnoses" patientId={server.patient.id} editing={editing} addOpen={false} onAddOpenChange={() => {}} />,
  );
  return screen.findByRole('list', { name: i18n.t('record:sections.diagnoses') });
}

describe('Entered in error', () => {
  it('asks for a reason, sends it with one DELETE, takes the entry off the list and keeps it with the reason', async () => {
    await switchLanguage('en');
    const wrong = await addDiagnosis('Tuberculosis');
    await addDiagnosis('Asthma');
    const user = userEvent.setup();
    const list = await renderList(true);
    server.transport.sent.length = 0;
    await user.click(within(list).getByRole('button', { name: i18n.t('record:actions.enteredInErrorLabel', { name: 'Tuberculosis' }) }));
    const dialog = await screen.findByRole('dialog', { name: i18n.t('record:enteredInError.title') });
    expect(dialog.textContent).toContain(i18n.t('record:enteredInError.description', { name: 'Tuberculosis' }));
    const confirm = within(dialog).getByRole('button', { name: i18n.t('record:enteredInError.confirm') });

    // No reason: said beside the field, nothing sent.
    await user.click(confirm);
    const reason = within(dialog).getByLabelText(new RegExp(`^${i18n.t('record:enteredInError.reason')}`));
    await waitFor(() => expect(reason.getAttribute('aria-invalid')).toBe('true'));
    expect(dialog.textContent).toContain(i18n.t('validation:enteredInErrorReasonRequired'));
    expect(server.transport.sent).toEqual([]);

    await user.type(reason, 'Recorded on the wrong patient');
    await user.click(confirm);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.transport.sent.map((r) => [r.method, r.url, r.status, r.body])).toEqual([
      ['DELETE', `/api/diagnoses/${wrong.id}`, 204, { reason: 'Recorded on the wrong patient' }],
    ]);
    await waitFor(() => expect(within(list).queryByText('Tuberculosis')).toBeNull());
    expect(within(list).getByText('Asthma')).toBeTruthy();
    expect(await screen.findByText(i18n.t('record:toast.enteredInError.diagnoses'))).toBeTruthy();
    // (Where focus goes afterwards needs a layout: the journey, e2e/versioned-record.e2e.ts, checks it.)
    const kept = await queryOne<{ reason: string | null; at: string | null }>(
      server.t.db,
      sql`SELECT entered_in_error_reason AS reason, entered_in_error_at AS at FROM diagnoses WHERE id = ${wrong.id}`,
    );
    expect(kept?.reason).toBe('Recorded on the wrong patient');
    expect(kept?.at).not.toBeNull();
  });
});

describe('History', () => {
  it('lists every version of an entry in Oshiwambo: added, edited (what changed), entered in error (why), in view mode too', async () => {
    await switchLanguage('ng');
    const row = await addDiagnosis('Malaria');
    const edited = await server.t.app.inject({
      method: 'PATCH',
      url: `/api/diagnoses/${row.id}`,
      headers: { cookie: server.cookie, 'if-match': '"1"' },
      payload: { ...DIAGNOSIS, condition: 'Malaria', status: 'Resolved', resolvedDate: '2024-02-01' },
    });
    expect(edited.statusCode).toBe(200);
    const user = userEvent.setup();
    const list = await renderList(false);
    const open = within(list).getByRole('button', { name: i18n.t('record:actions.historyLabel', { name: 'Malaria' }) });
    await user.click(open);
    const dialog = await screen.findByRole('dialog', { name: i18n.t('record:history.title') });
    const versions = await within(dialog).findByRole('list', { name: i18n.t('record:history.versions') });
    const items = within(versions).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain(
      `${i18n.t('record:history.version', { version: 1 })} · ${i18n.t('record:history.actions.created')}`,
    );
    expect(items[1]!.textContent).toContain(
      `${i18n.t('record:history.version', { version: 2 })} · ${i18n.t('record:history.actions.edited')}`,
    );
    const changed = items[1]!.textContent ?? '';
    expect(changed).toContain(i18n.t('record:fields.status'));
    expect(changed).toContain(i18n.t('record:fields.resolvedDate'));
    expect(changed).not.toContain(i18n.t('record:fields.doctor'));
    // The entry as that version left it.
    expect(changed).toContain(i18n.t('record:item.resolved', { date: '01/02/2024' }));
    expect(items[0]!.textContent).not.toContain(i18n.t('record:item.resolved', { date: '01/02/2024' }));
    expect(i18n.t('record:history.actions.edited')).not.toBe('Edited');

    await user.click(within(dialog).getByRole('button', { name: i18n.t('record:history.close') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Marked entered in error: off the list, and its history says why.
    const marked = await server.t.app.inject({
      method: 'DELETE',
      url: `/api/diagnoses/${row.id}`,
      headers: { cookie: server.cookie },
      payload: { reason: 'Wrong patient' },
    });
    expect(marked.statusCode).toBe(204);
    const res = await server.t.app.inject({ method: 'GET', url: `/api/diagnoses/${row.id}/history`, headers: { cookie: server.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ action: string }[]>().map((e) => e.action)).toEqual(['created', 'edited', 'entered-in-error']);
  });

  it('shows the entered-in-error version with its reason', async () => {
    await switchLanguage('en');
    const row = await addDiagnosis('Cholera');
    const user = userEvent.setup();
    const list = await renderList(false);
    const open = within(list).getByRole('button', { name: i18n.t('record:actions.historyLabel', { name: 'Cholera' }) });
    // Marked meanwhile by someone else; the history read when the dialog opens has it.
    const marked = await server.t.app.inject({
      method: 'DELETE',
      url: `/api/diagnoses/${row.id}`,
      headers: { cookie: server.cookie },
      payload: { reason: 'Duplicate of an earlier entry' },
    });
    expect(marked.statusCode).toBe(204);
    await user.click(open);
    const dialog = await screen.findByRole('dialog', { name: i18n.t('record:history.title') });
    const versions = await within(dialog).findByRole('list', { name: i18n.t('record:history.versions') });
    const items = within(versions).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringContaining(i18n.t('record:history.actions.created')),
      expect.stringContaining(i18n.t('record:history.reason', { reason: 'Duplicate of an earlier entry' })),
    ]);
    expect(items[1]!.textContent).toContain(i18n.t('record:history.actions.entered-in-error'));
  });
});
