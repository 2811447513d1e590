import '../../../test/dom';
// The Joins view against the real server (issue 24 items 3-5): a join above the second-review limit waits; the
// reviewer who asked for it cannot approve it (the button is disabled and says why), another reviewer approves it;
// undo asks for a reason (refused without one, in the user's language) and then the records are apart again.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../../contracts/constants';
import { createPatient, type TestPatient } from '../../../../server/test/patient-fixtures';
import { insertClinicalRows } from '../../../../server/test/portal-fixtures';
import { queryOne } from '../../../../server/test/sql';
import { createStaffUser, signIn, signInAs } from '../../../../server/test/staff';
import type { TestApp } from '../../../../server/test/test-app';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { JoinsList } from './joins-list';

const ME = { firstName: 'Loide', lastName: 'Haimbodi' };
let mine: TestPatient;
let theirs: TestPatient;

/** Two records of one person with 30 diagnoses each (above the limit of 50 together), and their pair. */
async function pairOf(t: TestApp, lastName: string): Promise<{ pairId: number; survivor: TestPatient }> {
  const a = await createPatient(t.db, { firstName: 'Tangeni', lastName, dateOfBirth: '1971-10-02' });
  const b = await createPatient(t.db, { firstName: 'Tangeni', lastName: `${lastName}a`, dateOfBirth: '1971-10-02' });
  for (const p of [a, b])
    await insertClinicalRows(t.db, p.id, { diagnoses: 30, appointments: 0, allergies: 0, medications: 0, vaccines: 0 });
  const pair = await queryOne<{ id: number }>(
    t.db,
    sql`INSERT INTO duplicate_pairs (patient_a, patient_b, score, band, reasons, found_at, scored_at)
        VALUES (${a.id}, ${b.id}, 30, 'very-likely', '[]'::jsonb, now(), now()) RETURNING id`,
  );
  return { pairId: pair!.id, survivor: a };
}

async function askToJoin(t: TestApp, cookie: string, pairId: number, survivorId: number): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/duplicates/${pairId}/decision`,
    headers: { cookie },
    payload: { decision: 'same', survivorId },
  });
  expect(res.json()).toMatchObject({ join: { status: 'pending' } });
}

const server = realServer(async (t) => {
  const me = await createStaffUser(t.db, { roleId: ROLE_IDS.healthInformationOfficer, ...ME });
  const cookie = await signIn(t.app, me.email, me.password);
  const other = (await signInAs(t, ROLE_IDS.admin)).cookie;
  const first = await pairOf(t, 'Shikongo');
  const second = await pairOf(t, 'Amutenya');
  mine = first.survivor;
  theirs = second.survivor;
  await askToJoin(t, cookie, first.pairId, first.survivor.id);
  await askToJoin(t, other, second.pairId, second.survivor.id);
  return cookie;
});

const itemOf = async (survivor: TestPatient) =>
  (await screen.findByText(new RegExp(`into ${survivor.firstName} ${survivor.lastName} \\(NC ${survivor.idNumber}\\)`))).closest('li')!;
const joinStatus = async (survivorId: number) =>
  (await queryOne<{ status: string }>(server.t.db, sql`SELECT status FROM patient_joins WHERE survivor_id = ${survivorId}`))!.status;

describe('the joins', () => {
  it('lets another reviewer approve a waiting join, never the one who asked for it', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    renderWithApp(<JoinsList userName="Loide Haimbodi" />);
    const own = await itemOf(mine);
    const ownApprove = within(own).getByRole('button', { name: i18n.t('dashboard:duplicates.joins.approve') });
    expect(ownApprove).toHaveProperty('disabled', true);
    expect(within(own).getByText(i18n.t('dashboard:duplicates.joins.ownJoin'))).toBeTruthy();

    const other = await itemOf(theirs);
    const approve = within(other).getByRole('button', { name: i18n.t('dashboard:duplicates.joins.approve') });
    approve.focus();
    await user.keyboard('{Enter}');
    await waitFor(async () => expect(await joinStatus(theirs.id)).toBe('joined'));
    expect(await screen.findByText(i18n.t('dashboard:duplicates.joins.approved_toast'))).toBeTruthy();
  });

  it('undoes a join only with a reason', async () => {
    const user = userEvent.setup();
    renderWithApp(<JoinsList userName="Loide Haimbodi" />);
    const recent = await screen.findByRole('region', { name: i18n.t('dashboard:duplicates.joins.recent') });
    const item = (await within(recent).findByText(new RegExp(`\\(NC ${theirs.idNumber}\\)`))).closest('li')!;
    within(item)
      .getByRole('button', { name: i18n.t('dashboard:duplicates.joins.undo') })
      .focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: i18n.t('dashboard:duplicates.joins.undoTitle') });
    await user.click(within(dialog).getByRole('button', { name: i18n.t('dashboard:duplicates.joins.undoConfirm') }));
    expect(await within(dialog).findByText(i18n.t('validation:joinReasonRequired'))).toBeTruthy();
    expect(await joinStatus(theirs.id)).toBe('joined');

    await user.type(within(dialog).getByRole('textbox'), 'Father and son, same name');
    await user.click(within(dialog).getByRole('button', { name: i18n.t('dashboard:duplicates.joins.undoConfirm') }));
    await waitFor(async () => expect(await joinStatus(theirs.id)).toBe('undone'));
    expect(await within(item).findByText(i18n.t('dashboard:duplicates.joins.status.undone'))).toBeTruthy();
    // Where focus goes after it (the join's line) needs layout: the journey (e2e/duplicates.e2e.ts) checks it.
  });
});
