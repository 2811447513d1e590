// Coded entries, laboratory results and the warnings-then-confirm protocol in the Add dialog (issue 22), rendered
// with Testing Library against the real server (inject, a real database, the real catalogues), by keyboard: a pick
// from the type-ahead stores the code, free text (or typing after a pick) stays uncoded; a picked test fills in its
// unit and range and a number is sent as a number, text as text; a warning keeps the form and "Save anyway" sends the
// same body again with ?confirm=; the list shows each abnormal flag as a badge read out in words.
import '../../../test/dom';
import { describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import { ATC_SYSTEM, LOINC_SYSTEM } from '../../../../contracts/code-systems';
import type { RecordKind } from '../../../../contracts/kinds';
import { queryRows } from '../../../../server/test/sql';
import { realServerWithRecord } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { RecordFormDialog } from './record-form-dialog';
import { RecordListSection } from './record-list-section';

const server = realServerWithRecord();

function openDialog(kind: RecordKind) {
  const closed: boolean[] = [];
  const view = renderWithApp(
    <RecordFormDialog kind={kind} patientId={server.patient.id} open onOpenChange={(open) => closed.push(!open)} />,
  );
  const dialog = screen.getByRole('dialog');
  const field = (key: string) => {
    const name = i18n.t(`record:fields.${key}`);
    return within(dialog).getByLabelText((content) => content.replace(/\s*\*$/, '').trim() === name);
  };
  const save = () => within(dialog).getByRole('button', { name: i18n.t('record:form.save') });
  return { view, dialog, field, save, closed };
}

/** Types into the type-ahead and picks the option whose text starts with `option`, by keyboard only. */
async function pick(user: UserEvent, input: HTMLElement, typed: string, option: RegExp): Promise<void> {
  await user.click(input);
  await user.keyboard(typed);
  const listbox = await screen.findByRole('listbox', { name: i18n.t('record:coded.suggestions') });
  const options = await within(listbox).findAllByRole('option');
  const index = options.findIndex((o) => option.test(o.textContent ?? ''));
  expect(index, `no option like ${option} among ${options.map((o) => o.textContent).join(', ')}`).toBeGreaterThanOrEqual(0);
  for (let i = 0; i <= index; i++) await user.keyboard('{ArrowDown}');
  expect(input.getAttribute('aria-activedescendant')).toBe(options[index]!.id);
  await user.keyboard('{Enter}');
  await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('false'));
}

const posts = () => server.transport.sent.filter((r) => r.method === 'POST');

async function fillMedication(field: (key: string) => HTMLElement, user: UserEvent): Promise<void> {
  await user.type(field('dosage'), '500mg');
  await user.type(field('frequency'), 'Three times daily');
  await user.type(field('purpose'), 'Chest infection');
  await user.type(field('prescribedDate'), '2024-03-01');
  await user.type(field('prescribedBy'), 'Dr. Ndapewa Nghifindaka');
}

describe('Add dialog of a coded kind', () => {
  it('stores the code of an entry picked from the type-ahead', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const { field, save, closed } = openDialog('medications');
    const name = field('name');
    expect(name.getAttribute('role')).toBe('combobox');
    await pick(user, name, 'amoxi', /^amoxicillin\s*J01CA04$/);
    expect((name as HTMLInputElement).value).toBe('amoxicillin');
    await fillMedication(field, user);
    await user.click(save());

    await waitFor(() => expect(closed).toEqual([true]));
    expect(posts().map((r) => [r.url, r.status])).toEqual([[`/api/patients/${server.patient.id}/medications`, 201]]);
    expect(posts()[0]!.body).toMatchObject({ name: 'amoxicillin', code: 'J01CA04', codeSystem: ATC_SYSTEM });
    const rows = await queryRows<{ name: string; code: string | null }>(
      server.t.db,
      sql`SELECT name, code FROM medications WHERE patient_id = ${server.patient.id} ORDER BY id`,
    );
    expect(rows).toEqual([{ name: 'amoxicillin', code: 'J01CA04' }]);
  });

  it('keeps free text uncoded, and typing after a pick drops the code', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const { field, save, closed } = openDialog('allergies');
    const allergen = field('allergen');
    await pick(user, allergen, 'penicil', /^penicillins?\b/i);
    await user.keyboard(' (oral)');
    await user.type(field('reaction'), 'Rash');
    await user.type(field('reportedDate'), '2023-06-01');
    await user.click(save());

    await waitFor(() => expect(closed).toEqual([true]));
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.body).toMatchObject({ code: null, codeSystem: null });
    expect((posts()[0]!.body as { allergen: string }).allergen).toMatch(/ \(oral\)$/);
  });

  it('shows the warnings of a 409 in an alert that takes focus, keeps the form, and "Save anyway" confirms them', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const { dialog, field, save, closed } = openDialog('medications');
    await pick(user, field('name'), 'amoxi', /^amoxicillin\s*J01CA04$/);
    await fillMedication(field, user);
    await user.click(save());

    const alert = await within(dialog).findByRole('alert', { name: i18n.t('record:warnings.title') });
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect(alert.textContent).toContain(i18n.t('record:warnings.DUPLICATE_ENTRY', { name: 'amoxicillin' }));
    expect(closed).toEqual([]);
    expect((field('name') as HTMLInputElement).value).toBe('amoxicillin');
    expect(posts().map((r) => r.status)).toEqual([409]);

    // Keyboard only: Tab from the alert reaches "Save anyway".
    await user.tab();
    expect(document.activeElement).toBe(within(alert).getByRole('button', { name: i18n.t('record:warnings.confirm') }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(closed).toEqual([true]));
    const [first, second] = posts();
    expect(second!.url).toBe(`/api/patients/${server.patient.id}/medications?confirm=DUPLICATE_ENTRY`);
    expect(second!.status).toBe(201);
    expect(second!.body).toEqual(first!.body);
    expect(await screen.findByText(i18n.t('record:toast.added.medications'))).toBeTruthy();
  });

  it('Cancel in the alert keeps the dialog open and stores nothing', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const { dialog, field, save, closed } = openDialog('medications');
    await pick(user, field('name'), 'amoxi', /^amoxicillin\s*J01CA04$/);
    await fillMedication(field, user);
    await user.click(save());
    const alert = await within(dialog).findByRole('alert', { name: i18n.t('record:warnings.title') });
    await user.click(within(alert).getByRole('button', { name: i18n.t('record:form.cancel') }));
    expect(within(dialog).queryByRole('alert', { name: i18n.t('record:warnings.title') })).toBeNull();
    expect(closed).toEqual([]);
    expect(posts().map((r) => r.status)).toEqual([409]);
  });
});

describe('Add lab result dialog', () => {
  it("fills in the picked test's short name, unit and range, and sends a numeric result as a number", async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const { field, save, closed } = openDialog('lab-results');
    expect((field('labStatus') as HTMLSelectElement).value).toBe('final');
    await pick(user, field('labTest'), 'potass', /^Potassium \[Moles\/volume\] in Serum or Plasma/);
    expect((field('labTest') as HTMLInputElement).value).toBe('Potassium');
    expect((field('unit') as HTMLInputElement).value).toBe('mmol/L');
    expect((field('referenceLow') as HTMLInputElement).value).toBe('3.5');
    expect((field('referenceHigh') as HTMLInputElement).value).toBe('5.1');
    await user.type(field('labValue'), '6.9');
    await user.type(field('collectedDate'), '2024-03-01');
    await user.type(field('facility'), 'Katutura State Hospital');
    await user.click(save());

    await waitFor(() => expect(closed).toEqual([true]));
    expect(posts()[0]!.body).toMatchObject({
      name: 'Potassium',
      code: '2823-3',
      codeSystem: LOINC_SYSTEM,
      value: 6.9,
      unit: 'mmol/L',
      referenceLow: 3.5,
      referenceHigh: 5.1,
      status: 'final',
    });
    expect(posts()[0]!.status).toBe(201);
  });

  it('sends a result that is not a number as text, uncoded when typed freely', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const { field, save, closed } = openDialog('lab-results');
    await user.type(field('labTest'), 'HIV rapid test');
    await user.keyboard('{Escape}');
    await user.type(field('labValue'), 'Positive');
    await user.type(field('collectedDate'), '2024-03-02');
    await user.selectOptions(field('labStatus'), 'preliminary');
    await user.type(field('facility'), 'Oshakati Intermediate Hospital');
    await user.click(save());

    await waitFor(() => expect(closed).toEqual([true]));
    expect(posts()[0]!.body).toMatchObject({ name: 'HIV rapid test', value: 'Positive', code: null, status: 'preliminary' });
  });

  it('shows each abnormal flag in the list as a badge read out in words (Afrikaans too)', async () => {
    // A high (not critical) potassium on another day beside the critical one above.
    const add = await server.t.app.inject({
      method: 'POST',
      url: `/api/patients/${server.patient.id}/lab-results`,
      headers: { cookie: server.cookie },
      payload: {
        name: 'Potassium',
        value: 5.6,
        unit: 'mmol/L',
        referenceLow: 3.5,
        referenceHigh: 5.1,
        collectedDate: '2024-03-03',
        status: 'corrected',
        facility: 'Katutura State Hospital',
      },
    });
    expect(add.statusCode).toBe(201);
    for (const lang of ['en', 'af'] as const) {
      await switchLanguage(lang);
      renderWithApp(
        <RecordListSection kind="lab-results" patientId={server.patient.id} editing={false} addOpen={false} onAddOpenChange={() => {}} />,
      );
      const list = await screen.findByRole('list', { name: i18n.t('record:sections.lab-results') });
      const items = within(list).getAllByRole('listitem');
      expect(items).toHaveLength(3);
      // Newest first: the high potassium (uncoded), the HIV test (no flag), the critical potassium (coded, LOINC).
      expect(within(items[0]!).getByText(i18n.t('record:flags.H'))).toBeTruthy();
      expect(within(items[0]!).getByText(i18n.t('record:coded.uncoded'))).toBeTruthy();
      expect(items[1]!.textContent).not.toMatch(new RegExp(`${i18n.t('record:flags.H')}|${i18n.t('record:flags.HH')}`));
      expect(within(items[2]!).getByText(i18n.t('record:flags.HH'))).toBeTruthy();
      expect(items[2]!.textContent).toContain('2823-3');
      expect(items[2]!.textContent).toContain(i18n.t('record:coded.codeIn', { system: 'LOINC' }));
      expect(items[2]!.textContent).toContain('6.9 mmol/L');
      expect(items[2]!.textContent).toContain('3.5–5.1');
      cleanup();
    }
  });
});
