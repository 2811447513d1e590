// The Add dialog of the record (SPEC §2, §5) rendered with Testing Library against the real server (inject, a real
// database): the client's own validation stops bad input before any request, in the user's language; a valid add
// is one POST whose answer goes into the cache, and the row and its one audit row are in the database.
import '../../../test/dom';
import { describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { sql } from 'drizzle-orm';
import type { TestPatient } from '../../../../server/test/patient-fixtures';
import { doctorWithRecord } from '../../../../server/test/record-api';
import { queryOne } from '../../../../server/test/sql';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { recordKeys, recordListQueryOptions } from '../api/record-queries';
import { RecordFormDialog } from './record-form-dialog';

let patient: TestPatient;

const server = realServer(async (t) => {
  const doctor = await doctorWithRecord(t);
  patient = doctor.patient;
  return doctor.cookie;
});

const count = async (table: string): Promise<number> =>
  Number((await queryOne<{ n: number }>(server.t.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))!.n);

function openDialog() {
  const closed: boolean[] = [];
  const view = renderWithApp(<RecordFormDialog kind="diagnoses" patientId={patient.id} open onOpenChange={(open) => closed.push(!open)} />);
  const dialog = screen.getByRole('dialog');
  // A label reads "<name> *" when the field is required: match the name exactly.
  const field = (key: string) => {
    const name = i18n.t(`record:fields.${key}`);
    return within(dialog).getByLabelText((content) => content.replace(/\s*\*$/, '').trim() === name);
  };
  return { view, dialog, field, closed };
}

describe('Add diagnosis dialog', () => {
  it('shows each missing field beside it, in English, and sends nothing', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const { dialog, field } = openDialog();
    await user.click(within(dialog).getByRole('button', { name: i18n.t('record:form.save') }));

    const condition = field('condition');
    await waitFor(() => expect(condition.getAttribute('aria-invalid')).toBe('true'));
    const described = document.getElementById(condition.getAttribute('aria-describedby')!);
    expect(described?.textContent).toBe(i18n.t('validation:conditionRequired'));
    expect(described?.textContent).toBe('Condition is required');
    expect(document.getElementById(field('doctor').getAttribute('aria-describedby')!)?.textContent).toBe(
      i18n.t('validation:doctorRequired'),
    );
    expect(server.transport.sent).toEqual([]);
    expect(await count('diagnoses')).toBe(0);
  });

  it('speaks Afrikaans and Oshiwambo too: labels and messages from those locale files', async () => {
    for (const lang of ['af', 'ng'] as const) {
      cleanup();
      await switchLanguage(lang);
      const user = userEvent.setup();
      const { dialog, field } = openDialog();
      await user.click(within(dialog).getByRole('button', { name: i18n.t('record:form.save') }));
      const condition = field('condition');
      await waitFor(() => expect(condition.getAttribute('aria-invalid')).toBe('true'));
      const text = document.getElementById(condition.getAttribute('aria-describedby')!)?.textContent;
      expect(text).toBe(i18n.t('validation:conditionRequired'));
      expect(text).not.toBe('Condition is required');
    }
    expect(server.transport.sent).toEqual([]);
  });

  it('adds with one POST, puts the stored row in the cache, closes, and writes the row with one audit row', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const { dialog, field, closed, view } = openDialog();
    // The list is on screen, as in the record: loaded once (one GET and its VIEW row) before the add.
    await view.queryClient.fetchQuery(recordListQueryOptions('diagnoses', patient.id));
    server.transport.sent.length = 0;
    const auditBefore = await count('audit_logs');
    await user.type(field('condition'), 'Hypertension');
    await user.selectOptions(field('status'), 'Active');
    await user.type(field('diagnosedDate'), '2024-03-01');
    await user.type(field('doctor'), 'Dr. Ndapewa Nghifindaka');
    await user.type(field('facility'), 'Oshakati Intermediate Hospital');
    await user.click(within(dialog).getByRole('button', { name: i18n.t('record:form.save') }));

    await waitFor(() => expect(closed).toEqual([true]));
    // The condition's type-ahead may look up the catalogue while typing (reference data, not the record).
    const recordRequests = server.transport.sent.filter((r) => !r.url.startsWith('/api/codes?'));
    expect(recordRequests.map((r) => [r.method, r.url, r.status])).toEqual([['POST', `/api/patients/${patient.id}/diagnoses`, 201]]);
    const stored = await queryOne<{ id: number; condition: string; doctor: string }>(
      server.t.db,
      sql`SELECT id, condition, doctor FROM diagnoses WHERE patient_id = ${patient.id}`,
    );
    expect(stored).toMatchObject({ condition: 'Hypertension', doctor: 'Dr. Ndapewa Nghifindaka' });
    expect(await count('audit_logs')).toBe(auditBefore + 1);
    const cached = view.queryClient.getQueryData<{ id: number }[]>(recordKeys.list('diagnoses', patient.id));
    expect(cached?.map((d) => d.id)).toEqual([stored!.id]);
    expect(await screen.findByText(i18n.t('record:toast.added.diagnoses'))).toBeTruthy();
  });
});
