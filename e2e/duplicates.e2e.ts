// Journey at 375 px by keyboard (issue 24 items 3-5): a Health Information Officer opens Admin > Duplicates and runs
// the matcher. A planted pair (a surname typo, cousins) is "not the same person". Another (a spelling slip, one
// person seen at two clinics) is opened side by side, joined, and the surviving record opened: it holds the other
// record's allergy. Back in Admin > Duplicates > Joins, the join is undone with a reason, and the allergy is back where
// it was. In Afrikaans too. Screenshots go to e2e/artifacts/.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { insertPatient } from '../src/server/test/portal-fixtures';
import { createStaffUser } from '../src/server/test/staff';
import { browserAvailable, screenshot } from './support/browser';
import { signInThroughPage } from './support/fixtures';
import { tr, usePhonePage } from './support/phone-journey';

const run = browserAvailable();
const OFFICER = { firstName: 'Loide', lastName: 'Haimbodi', email: 'loide.haimbodi@health.gov.na', password: 'registry-clean-up-9' };

describe.skipIf(!run)('duplicate review journey at 375 px', () => {
  const j = usePhonePage(async (db) => {
    const officer = await createStaffUser(db, { roleId: 7, ...OFFICER, facility: 'Oshakati State Hospital' });
    // This officer may also open records (a permission given to them alone): the join's result links to the record.
    await db.execute(sql`INSERT INTO user_permissions (user_id, permission_id, is_granted)
                         SELECT ${officer.id}, id, true FROM permissions WHERE name = 'records.read'`);
    await insertPatient(db, { firstName: 'Ndapewa', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' });
    await insertPatient(db, { firstName: 'Ndapewa', lastName: 'Nghipondka', dateOfBirth: '1984-03-09' });
    const first = await insertPatient(db, { firstName: 'Tangeni', lastName: 'Shikongo', dateOfBirth: '1971-10-02', sex: 'Male' });
    const second = await insertPatient(db, { firstName: 'Tangeni', lastName: 'Schikongo', dateOfBirth: '1971-10-02', sex: 'Male' });
    await db.execute(sql`INSERT INTO diagnoses (patient_id, condition, status, diagnosed_date, doctor, facility)
                         VALUES (${first.id}, 'Hypertension', 'Active', '2019-05-02', 'Dr Nangolo', 'Oshakati State Hospital'),
                                (${first.id}, 'Type 2 diabetes', 'Active', '2021-01-12', 'Dr Nangolo', 'Oshakati State Hospital')`);
    await db.execute(sql`INSERT INTO allergies (patient_id, allergen, reaction, severity, reported_date)
                         VALUES (${second.id}, 'Penicillin', 'Swelling of the face', 'Severe', '2023-08-14')`);
    return { first, second };
  });
  const cardOf = (title: string) => j.page.getByRole('listitem').filter({ has: j.page.getByRole('heading', { name: title }) });

  it('runs the matcher and shows the planted pairs', async () => {
    const { page } = j;
    await signInThroughPage(page, j.app.baseUrl, OFFICER.email, OFFICER.password);
    await j.press(page.getByRole('button', { name: 'Admin', exact: true }), 'Enter');
    await page.getByRole('tab', { name: 'Duplicates', selected: true }).waitFor();
    await j.press(page.getByRole('button', { name: 'Check the registry for duplicates' }), 'Enter');
    await page.getByText(/Checked 4 patients: 2 pairs found/).waitFor();
    const card = cardOf('Ndapewa Nghipondoka and Ndapewa Nghipondka');
    await card.waitFor();
    expect(await card.getByText('(differs)').count()).toBe(2);
    await card.getByText(/Surname: one or two letters differ/).waitFor();
    await j.noSideways('queue');
    await j.noViolations('queue');
    await screenshot(page, 'duplicates-375-queue');
  });

  it('records "not the same person" by keyboard', async () => {
    const { page } = j;
    const card = cardOf('Ndapewa Nghipondoka and Ndapewa Nghipondka');
    await j.typeInto(card.getByRole('textbox'), 'Cousins, checked at the desk');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await card.waitFor({ state: 'detached' });
    await cardOf('Tangeni Shikongo and Tangeni Schikongo').waitFor();
  });

  it('opens the other pair side by side and joins it', async () => {
    const { page } = j;
    const { first, second } = j.seeded;
    await j.press(cardOf('Tangeni Shikongo and Tangeni Schikongo').getByRole('button', { name: 'Compare side by side' }), 'Enter');
    const heading = page.getByRole('heading', { name: 'Compare Tangeni Shikongo and Tangeni Schikongo' });
    await heading.waitFor();
    expect(await j.isFocused(heading)).toBe(true);
    // The first record has more clinical entries: suggested as the one to keep.
    await page.getByText('Suggested: record 1, because it has more clinical entries (2 against 1).').waitFor();
    const surname = page.getByRole('group', { name: /Surname: which to keep/ });
    await surname.getByText('Differs').waitFor();
    expect(await surname.getByRole('radio', { name: 'Keep record 1: Shikongo' }).isChecked()).toBe(true);
    // The allergy is on the second record only, and marked so.
    await page.getByRole('listitem').filter({ hasText: 'Penicillin' }).getByText('Only on this record').waitFor();
    await j.noSideways('pair side by side');
    await j.noViolations('pair side by side');
    await screenshot(page, 'duplicates-375-pair');

    await j.press(page.getByRole('button', { name: 'Same person — join' }), 'Enter');
    const dialog = page.getByRole('dialog', { name: 'Join these two records?' });
    await dialog.getByText(`NC ${second.ncNumber} keeps working: it opens the joined record.`).waitFor();
    await dialog.getByText('The join can be undone from the Joins list.').waitFor();
    await j.noViolations('join dialog');
    await j.press(dialog.getByRole('button', { name: 'Join the records' }), 'Enter');
    const done = page.getByText(`Joined: Tangeni Shikongo's record (NC ${first.ncNumber}) now holds the entries of both records.`);
    await done.waitFor();
    expect(await j.isFocused(done)).toBe(true);
    await j.noViolations('joined');
    await screenshot(page, 'duplicates-375-joined');
  });

  it("opens the surviving record: it holds the joined record's allergy", async () => {
    const { page } = j;
    const { first } = j.seeded;
    const grant = await page.request.post(`${j.app.baseUrl}/api/patients/${first.id}/access`, { data: { consent: true } });
    expect(grant.status()).toBe(201);
    await j.press(page.getByRole('link', { name: "Open Tangeni Shikongo's record" }), 'Enter');
    await page.getByRole('heading', { name: 'Medical Dashboard' }).waitFor();
    // The joined record's severe allergy is among the survivor's critical allergies.
    await page.getByRole('heading', { name: 'Critical Allergies' }).waitFor();
    await page.getByText('Penicillin').first().waitFor();
    await j.noSideways('survivor record');
  });

  it('undoes the join from Admin > Duplicates > Joins, with a reason', async () => {
    const { page } = j;
    const { first } = j.seeded;
    await j.press(page.getByRole('button', { name: 'Admin', exact: true }), 'Enter');
    const pairsTab = page.getByRole('tab', { name: 'Pairs to review' });
    await j.tabTo(pairsTab);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByRole('tab', { name: 'Joins' }).getAttribute('aria-selected')).toBe('true');
    const item = page.getByRole('listitem').filter({ hasText: 'Tangeni Schikongo' });
    await item.getByText('Joined', { exact: true }).waitFor();
    await item.getByText(/Asked for by Loide Haimbodi/).waitFor();
    await j.noViolations('joins');
    await j.press(item.getByRole('button', { name: 'Undo the join' }), 'Enter');
    const dialog = page.getByRole('dialog', { name: 'Undo this join?' });
    // No reason: refused, with the reason asked for.
    await j.press(dialog.getByRole('button', { name: 'Undo the join' }), 'Enter');
    await dialog.getByText(tr('en', 'validation:joinReasonRequired')).waitFor();
    await j.typeInto(dialog.getByRole('textbox', { name: /Why the join was wrong/ }), 'Father and son, same name');
    await j.press(dialog.getByRole('button', { name: 'Undo the join' }), 'Enter');
    await dialog.waitFor({ state: 'detached' });
    await item.getByText('Undone', { exact: true }).waitFor();
    await item.getByText(/Undone by Loide Haimbodi on .*: Father and son, same name/).waitFor();
    // Focus is on the join's line, not lost to the page.
    expect(await page.evaluate(() => document.activeElement?.id)).toMatch(/^join-\d+$/);
    await j.noSideways('joins');
    await screenshot(page, 'duplicates-375-undone');

    // The surviving record no longer holds the allergy: it is back on its own record.
    await page.goto(`${j.app.baseUrl}/?patient=${first.id}`);
    await page.getByRole('heading', { name: 'Medical Dashboard' }).waitFor();
    await page.getByText('No critical safety information').waitFor();
    expect(await page.getByText('Penicillin').count()).toBe(0);
  });

  it('reads in Afrikaans', async () => {
    const { page } = j;
    await j.press(page.getByRole('button', { name: 'Admin', exact: true }), 'Enter');
    await page.getByRole('button', { name: /^Language: English/ }).click();
    await page.getByRole('button', { name: /Afrikaans/ }).click();
    await j.tabTo(page.getByRole('tab', { name: 'Pare om na te gaan' }));
    await page.keyboard.press('ArrowRight');
    await page.getByRole('listitem').filter({ hasText: 'Tangeni Schikongo' }).getByText('Ongedaan gemaak', { exact: true }).waitFor();
    await j.noSideways('joins in Afrikaans');
    await screenshot(page, 'duplicates-375-afrikaans');
    expect(j.consoleErrors.filter((e) => !/status of 40[0134]/.test(e))).toEqual([]);
  });
});
