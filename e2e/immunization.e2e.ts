// Journey (issue 25, "Done means"): on a 375 px phone, by keyboard only, a clinician of the clinic (a doctor: nurses
// and doctors hold the defaulter list) lists the clinic's defaulters and finds a child; opens the child's record,
// sees Pentavalent 2 overdue on the dashboard, goes from there to the Vaccines section and sees its reason; records the dose (picked from the catalogue);
// the schedule now counts it; and the child leaves the defaulter list. No horizontal scroll, no axe violation.
import { describe, expect, it } from 'vitest';
import { addDays, todayIso } from '../src/contracts/calendar';
import { CVX_SYSTEM } from '../src/contracts/code-systems';
import { browserAvailable, screenshot } from './support/browser';
import { escapeRegExp, tr, usePhoneJourney, type Lang } from './support/phone-journey';

const run = browserAvailable();
const FACILITY = 'Okuryangava Clinic';
const DOCTOR = {
  firstName: 'Selma',
  lastName: 'Nangolo',
  email: 'selma.nangolo@health.gov.na',
  password: 'vaccine-cold-chain',
  facility: FACILITY,
};
const today = todayIso();
const DOB = addDays(today, -100);
// Only the child in English is used; the phone journey seeds one patient per language.
const NAMES = {
  en: { firstName: 'Ndapewa', lastName: 'Shikongo', dateOfBirth: DOB },
  af: { firstName: 'Johannes', lastName: 'van Wyk' },
  ng: { firstName: 'Ndeshipanda', lastName: 'Nakale' },
} as Record<Lang, { firstName: string; lastName: string }>;
const ddmmyyyy = (iso: string): string => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
/** Every dose due by 14 weeks given on time except Pentavalent 2 (due at 10 weeks, 30 days ago). */
const GIVEN: [string, string, number][] = [
  ['19', 'BCG', 1],
  ['08', 'HepB', 1],
  ['178', 'OPV', 1],
  ['178', 'OPV', 42],
  ['198', 'Pentavalent', 42],
  ['133', 'PCV', 42],
  ['119', 'Rotavirus', 42],
  ['178', 'OPV', 72],
  ['133', 'PCV', 72],
  ['119', 'Rotavirus', 72],
];

describe.skipIf(!run)('immunization journey: an overdue dose seen with its reason, recorded, and off the defaulter list', () => {
  const j = usePhoneJourney(DOCTOR, NAMES);
  const { tabTo, press, dialog, field, noHorizontalScroll, noViolations, isFocused } = j;
  const lang: Lang = 'en';
  const childRow = () => j.page.getByRole('rowheader', { name: 'Shikongo, Ndapewa' });

  async function showDefaulters(): Promise<void> {
    await j.page.goto(`${j.app.baseUrl}/`);
    await press(j.page.getByRole('button', { name: tr(lang, 'dashboard:defaulters.button'), exact: true }), 'Enter');
    await j.page.getByRole('heading', { name: tr(lang, 'dashboard:defaulters.title', { facility: FACILITY }) }).waitFor();
    await press(j.page.getByRole('button', { name: tr(lang, 'dashboard:defaulters.show'), exact: true }), 'Enter');
    await j.page.getByRole('button', { name: tr(lang, 'dashboard:defaulters.print'), exact: true }).waitFor();
  }

  it('signs in; the child has every dose so far but Pentavalent 2', async () => {
    await j.signIn();
    const id = j.patients.en.id;
    await j.confirmAccess(id);
    for (const [code, vaccine, age] of GIVEN) {
      const res = await j.page.request.post(`${j.app.baseUrl}/api/patients/${id}/vaccines`, {
        data: { vaccine, code, codeSystem: CVX_SYSTEM, date: addDays(DOB, age), dose: '1', facility: FACILITY },
      });
      expect(res.status()).toBe(201);
    }
  });

  it('lists the child among the clinic’s defaulters', async () => {
    await showDefaulters();
    await childRow().waitFor();
    await j.page
      .getByText(tr(lang, 'dashboard:defaulters.overdueDose', { name: 'Pentavalent 2', date: ddmmyyyy(addDays(DOB, 70)) }))
      .waitFor();
    await noHorizontalScroll('defaulter list');
    await noViolations('defaulter list');
    await screenshot(j.page, 'defaulters-375');
  });

  it('shows Pentavalent 2 overdue with its reason in the record, records it, and the schedule counts it', async () => {
    await j.openRecord(lang, j.patients.en);
    // The dashboard names the overdue dose and leads, by keyboard, to the vaccines section's schedule.
    const doses = j.page.getByRole('region', { name: tr(lang, 'record:dashboard.doses.title') });
    await doses.getByRole('listitem').filter({ hasText: 'Pentavalent 2' }).waitFor();
    await noHorizontalScroll('dashboard doses');
    await noViolations('dashboard doses');
    await screenshot(j.page, 'dashboard-doses-375');
    await press(doses.getByRole('button', { name: tr(lang, 'record:dashboard.doses.open') }), 'Enter');
    const title = j.page.getByRole('heading', { name: tr(lang, 'record:immunization.title') });
    await title.waitFor();
    await expect.poll(() => isFocused(title)).toBe(true);
    const overdue = j.page.getByRole('list', { name: tr(lang, 'record:immunization.groups.overdue') });
    const reason = tr(lang, 'record:immunization.reasons.OVERDUE', { weeks: '4 weeks', date: ddmmyyyy(addDays(DOB, 70)) });
    await overdue
      .getByRole('listitem')
      .filter({ hasText: 'Pentavalent 2' })
      .getByText(new RegExp(escapeRegExp(reason)))
      .waitFor();
    await noHorizontalScroll('immunization card');
    await noViolations('immunization card');
    await screenshot(j.page, 'immunization-375');

    await j.editMode(lang);
    await press(j.page.getByRole('button', { name: tr(lang, 'record:add.vaccines'), exact: true }), 'Enter');
    await dialog().waitFor();
    const combobox = field(lang, 'vaccine');
    await tabTo(combobox);
    await j.page.keyboard.type('Penta');
    const list = j.page.getByRole('listbox', { name: tr(lang, 'record:coded.suggestions') });
    await list
      .getByRole('option', { name: /\(pentavalent\)/i })
      .first()
      .waitFor();
    for (let i = 0; i < 10; i++) {
      await j.page.keyboard.press('ArrowDown');
      const active = await combobox.getAttribute('aria-activedescendant');
      if (active && /\(pentavalent\)/i.test((await j.page.locator(`[id="${active}"]`).textContent()) ?? '')) break;
    }
    await j.page.keyboard.press('Enter');
    await list.waitFor({ state: 'hidden' });
    await j.typeInto(field(lang, 'date'), ddmmyyyy(today));
    await j.typeInto(field(lang, 'dose'), '2');
    await j.typeInto(field(lang, 'facility'), FACILITY);
    await press(dialog().getByRole('button', { name: tr(lang, 'record:form.save'), exact: true }), 'Enter');
    await dialog().waitFor({ state: 'detached' });
    const given = j.page.getByRole('list', { name: tr(lang, 'record:immunization.groups.given') });
    await given.getByRole('listitem').filter({ hasText: 'Pentavalent 2' }).waitFor();
    expect(await overdue.count()).toBe(0);
  });

  it('the child has left the defaulter list', async () => {
    await showDefaulters();
    await j.page.getByText(tr(lang, 'dashboard:defaulters.none')).waitFor();
    expect(await childRow().count()).toBe(0);
  });
});
