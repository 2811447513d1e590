import '../../../test/dom';
// One pair opened side by side against the real server (issue 24 item 3): both records' details with a choice where
// they differ (marked, with a word for screen readers; the suggested survivor's value chosen), the suggested survivor
// and why, the portal choice when both records have portal sign-in, each clinical list with what is on one record only
// marked, and the join's confirmation saying what will happen, by keyboard, in Oshiwambo too.
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../../contracts/constants';
import { createPatient, type TestPatient } from '../../../../server/test/patient-fixtures';
import { activatePatient, insertClinicalRows } from '../../../../server/test/portal-fixtures';
import { queryOne } from '../../../../server/test/sql';
import { signInAs } from '../../../../server/test/staff';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { PairReview } from './pair-review';

let pairId = 0;
let bigPairId = 0;
let older: TestPatient;
let newer: TestPatient;
const server = realServer(async (t) => {
  older = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' });
  newer = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Nghipondka', dateOfBirth: '1984-03-09' });
  await insertClinicalRows(t.db, older.id, { diagnoses: 1, appointments: 0, allergies: 0, medications: 0, vaccines: 0 }, 'OLD');
  await insertClinicalRows(t.db, newer.id, { diagnoses: 1, appointments: 0, allergies: 1, medications: 1, vaccines: 0 }, 'NEW');
  for (const p of [older, newer]) await activatePatient(t.db, { id: p.id, ncNumber: p.idNumber, dateOfBirth: p.dateOfBirth });
  pairId = (await queryOne<{ id: number }>(
    t.db,
    sql`INSERT INTO duplicate_pairs (patient_a, patient_b, score, band, reasons, found_at, scored_at)
        VALUES (${older.id}, ${newer.id}, 30, 'very-likely', '[]'::jsonb, now(), now()) RETURNING id`,
  ))!.id;
  // Two records with 60 clinical rows together: above the limit (50), a join waits for a second reviewer.
  const big = [
    await createPatient(t.db, { firstName: 'Hilma', lastName: 'Amutenya', dateOfBirth: '1990-05-21' }),
    await createPatient(t.db, { firstName: 'Hilma', lastName: 'Amutenja', dateOfBirth: '1990-05-21' }),
  ];
  for (const p of big) await insertClinicalRows(t.db, p.id, { diagnoses: 30, appointments: 0, allergies: 0, medications: 0, vaccines: 0 });
  bigPairId = (await queryOne<{ id: number }>(
    t.db,
    sql`INSERT INTO duplicate_pairs (patient_a, patient_b, score, band, reasons, found_at, scored_at)
        VALUES (${big[0]!.id}, ${big[1]!.id}, 28, 'very-likely', '[]'::jsonb, now(), now()) RETURNING id`,
  ))!.id;
  return (await signInAs(t, ROLE_IDS.healthInformationOfficer)).cookie;
});

/** The test's own reading of an entry: its first text field (the app hands in the record's kind views). */
const describeRow = (_kind: string, row: unknown) => {
  const r = row as Record<string, unknown>;
  return { title: String(r.condition ?? r.allergen ?? r.name ?? r.vaccine ?? r.type ?? ''), lines: [] };
};

describe('a pair side by side', () => {
  it('shows both records, the choices with their defaults, and what a join will do', async () => {
    await switchLanguage('ng');
    const t = i18n.getFixedT('ng', 'dashboard');
    const user = userEvent.setup();
    renderWithApp(<PairReview pairId={pairId} onBack={() => {}} describeRow={describeRow} canOpenRecords={false} />);
    const heading = await screen.findByRole('heading', {
      name: t('duplicates.review.title', { a: 'Ndapewa Nghipondoka', b: 'Ndapewa Nghipondka' }),
    });
    // The heading takes focus when the pair opens.
    expect(document.activeElement).toBe(heading);

    // The newer record has more clinical entries (3 against 1): suggested, and chosen.
    expect(screen.getByText(t('duplicates.review.survivorRows', { n: '2', rows: '3', other: '1' }))).toBeTruthy();
    const survivor = screen.getByRole('group', { name: t('duplicates.review.survivor') });
    expect(
      within(survivor)
        .getAllByRole('radio')
        .map((r) => (r as HTMLInputElement).checked),
    ).toEqual([false, true]);

    // The surname differs: a choice, marked (the mark's word is read), the survivor's value chosen.
    const surname = screen.getByRole('group', { name: new RegExp(t('duplicates.review.keep', { field: t('duplicates.field.lastName') })) });
    expect(within(surname).getByText(t('duplicates.review.differsMark'))).toBeTruthy();
    const choices = within(surname).getAllByRole('radio') as HTMLInputElement[];
    expect(choices.map((c) => c.checked)).toEqual([false, true]);
    // The first name is the same: no choice.
    expect(screen.queryByRole('group', { name: new RegExp(t('duplicates.field.firstName')) })).toBeNull();
    // Both have portal sign-in: whose PIN keeps working.
    expect(screen.getByRole('group', { name: t('duplicates.review.portal') })).toBeTruthy();

    // Each list side by side; the entries on one record only are marked.
    const newOnly = screen.getByText('Allergen NEW-0').closest('li')!;
    expect(within(newOnly).getByText(t('duplicates.review.onlyHere'))).toBeTruthy();
    expect(screen.getByText('Condition OLD-0')).toBeTruthy();

    // By keyboard: keep the older record's surname (Space on its choice), then ask to join.
    choices[0]!.focus();
    await user.keyboard(' ');
    expect(choices[0]!.checked).toBe(true);
    const join = screen.getByRole('button', { name: t('duplicates.review.join') });
    join.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: t('duplicates.review.joinTitle') });
    expect(
      within(dialog).getByText(t('duplicates.review.joinWhat', { from: '1', fromNc: older.idNumber, to: '2', toNc: newer.idNumber })),
    ).toBeTruthy();
    expect(within(dialog).getByText(t('duplicates.review.joinNumber', { fromNc: older.idNumber }))).toBeTruthy();
    expect(within(dialog).getByText(t('duplicates.review.joinUndo'))).toBeTruthy();
    await user.keyboard('{Escape}');
    await screen.findByRole('button', { name: t('duplicates.review.join') });
    expect((await queryOne<{ status: string }>(server.t.db, sql`SELECT status FROM duplicate_pairs WHERE id = ${pairId}`))!.status).toBe(
      'open',
    );
  });

  it('joins a large pair only after a second reviewer: the reviewer is told it waits', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    renderWithApp(<PairReview pairId={bigPairId} onBack={() => {}} describeRow={describeRow} canOpenRecords />);
    const join = await screen.findByRole('button', { name: i18n.t('dashboard:duplicates.review.join') });
    await user.click(join);
    const dialog = await screen.findByRole('dialog', { name: i18n.t('dashboard:duplicates.review.joinTitle') });
    await user.click(within(dialog).getByRole('button', { name: i18n.t('dashboard:duplicates.review.joinConfirm') }));
    expect(await screen.findByText(i18n.t('dashboard:duplicates.review.pending'))).toBeTruthy();
    // Not joined yet: no way to the surviving record.
    expect(screen.queryByRole('link')).toBeNull();
    expect(await queryOne(server.t.db, sql`SELECT status FROM patient_joins`)).toEqual({ status: 'pending' });
  });
});
