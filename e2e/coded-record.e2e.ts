// Journey (issue 22, "Done means"): on a 375 px phone, by keyboard only (Tab/Shift+Tab, typing, the arrow keys and
// Enter in the type-ahead, Enter/Space on buttons), in English, Afrikaans and Oshiwambo (switched with the header's
// language selector), a doctor with confirmed access adds a coded medication from the type-ahead (its ATC code shown
// in the list) and a laboratory result picked from the LOINC catalogue (unit and range filled in from it) whose value
// is critically high: the list says so in words, the Medical Dashboard raises the critical alert and lists it among
// the recent results. Once, the same medication added again is a warning that takes focus, then "Save anyway".
// No horizontal scroll at 375 px, no axe violation, a clean console. Every label is read from the locale files.
import { describe, expect, it } from 'vitest';
import { todayIso } from '../src/contracts/calendar';
import { browserAvailable, screenshot } from './support/browser';
import { LANGS, tr, usePhoneJourney, type Lang } from './support/phone-journey';

const run = browserAvailable();
const DOCTOR = {
  firstName: 'Tangeni',
  lastName: 'Amutenya',
  email: 'tangeni.amutenya@health.gov.na',
  password: 'stethoscope-42',
  facility: 'Katutura State Hospital',
};
const NAMES: Record<Lang, { firstName: string; lastName: string }> = {
  en: { firstName: 'Ndinelao', lastName: 'Haufiku' },
  af: { firstName: 'Petrus', lastName: 'Nghidinwa' },
  ng: { firstName: 'Hilma', lastName: 'Iipinge' },
};
const today = todayIso();
const ddmmyyyy = (iso: string): string => iso.split('-').reverse().join('/');

describe.skipIf(!run)('coded record journey: a coded medication and a critical lab result, by keyboard at 375 px, in en/af/ng', () => {
  const j = usePhoneJourney(DOCTOR, NAMES);
  const { press, typeInto, focused, dialog, field, sectionList, noHorizontalScroll, noViolations, openSection, pickSuggestion } = j;

  // ---- this journey's steps ------------------------------------------------------------------------------------
  async function save(lang: Lang, kind: string): Promise<void> {
    await press(dialog().getByRole('button', { name: tr(lang, 'record:form.save'), exact: true }), 'Enter');
    await j.page
      .getByText(tr(lang, `record:toast.added.${kind}`), { exact: true })
      .first()
      .waitFor();
    await dialog().waitFor({ state: 'detached' });
  }
  let axeSeenOpen = false;
  async function addMedication(lang: Lang): Promise<void> {
    const add = j.page.getByRole('button', { name: tr(lang, 'record:add.medications'), exact: true });
    await press(add, 'Enter');
    await dialog().waitFor();
    // With the suggestions open and one of them active (aria-activedescendant): no sideways scroll; axe once, in en.
    await pickSuggestion(field(lang, 'name'), 'amox', /^amoxicillin\s*J01CA04$/, lang, async () => {
      await noHorizontalScroll(`${lang} suggestions open`);
      if (lang === 'en' && !axeSeenOpen) await noViolations('medication dialog, suggestions open');
      axeSeenOpen = true;
    });
    expect(await field(lang, 'name').inputValue()).toBe('amoxicillin');
    await dialog()
      .getByText(tr(lang, 'common:codes.codeLabel', { code: 'J01CA04' }))
      .waitFor();
    await typeInto(field(lang, 'dosage'), '500mg');
    await typeInto(field(lang, 'frequency'), '3x daily');
    await typeInto(field(lang, 'purpose'), 'Chest infection');
    await typeInto(field(lang, 'prescribedDate'), ddmmyyyy(today));
    await typeInto(field(lang, 'prescribedBy'), 'Dr. Tangeni Amutenya');
  }

  it('signs in by keyboard; access to the patients is confirmed', async () => {
    await j.signIn();
    // The doctor has confirmed access (the patient consented) to each language's patient, through the real API.
    for (const lang of LANGS) await j.confirmAccess(j.patients[lang].id);
  });

  for (const lang of LANGS) {
    it(`${lang}: adds a coded medication and a critically high potassium, seen on the list and the dashboard`, async () => {
      // The header's language selector, by keyboard.
      if (lang !== 'en') await j.switchLanguage(lang);
      const patient = j.patients[lang];
      await j.openRecord(lang, patient);
      await j.page.getByRole('heading', { name: `${patient.firstName} ${patient.lastName}` }).waitFor();
      await noHorizontalScroll(`${lang} record`);

      await j.editMode(lang);

      // A coded medication from the type-ahead.
      await openSection(lang, 'medications');
      await addMedication(lang);
      await noHorizontalScroll(`${lang} medication dialog`);
      await save(lang, 'medications');
      const medications = sectionList(lang, 'medications');
      const amoxicillin = medications.getByRole('listitem').filter({ hasText: 'amoxicillin - 500mg' });
      await amoxicillin.getByText('J01CA04').waitFor();
      await amoxicillin
        .getByText(tr(lang, 'record:coded.codeIn', { system: tr(lang, 'record:coded.systems.atc') }))
        .waitFor({ state: 'attached' });
      await expect.poll(focused).toMatchObject({ tag: 'button', text: tr(lang, 'record:add.medications') });

      if (lang === 'ng') {
        // The warnings-then-confirm flow, once: the same active medicine again is a warning that takes focus.
        await addMedication(lang);
        await press(dialog().getByRole('button', { name: tr(lang, 'record:form.save'), exact: true }), 'Enter');
        const warning = dialog().getByRole('alert', { name: tr(lang, 'record:warnings.title') });
        await warning.getByText(tr(lang, 'record:warnings.DUPLICATE_ENTRY', { name: 'amoxicillin' })).waitFor();
        await expect.poll(focused).toMatchObject({ role: 'alert' });
        await noHorizontalScroll(`${lang} warning`);
        await noViolations(`${lang} warning`);
        await screenshot(j.page, `coded-record-375-${lang}-warning`);
        // Nothing stored yet: the record still holds the one amoxicillin.
        const stored = await j.page.request.get(`${j.app.baseUrl}/api/patients/${patient.id}/medications`);
        expect(((await stored.json()) as unknown[]).length).toBe(1);
        await press(warning.getByRole('button', { name: tr(lang, 'record:warnings.confirm'), exact: true }), 'Space');
        await j.page.getByText(tr(lang, 'record:toast.added.medications'), { exact: true }).first().waitFor();
        await dialog().waitFor({ state: 'detached' });
        await expect.poll(() => amoxicillin.count()).toBe(2);
      }

      // A lab result: the test picked from the catalogue fills in unit and range; 7.9 mmol/L is critically high.
      await openSection(lang, 'lab-results');
      await press(j.page.getByRole('button', { name: tr(lang, 'record:add.lab-results'), exact: true }), 'Enter');
      await dialog().waitFor();
      await pickSuggestion(field(lang, 'labTest'), 'potass', /^Potassium \[Moles\/volume\] in Serum or Plasma/, lang);
      expect(await field(lang, 'labTest').inputValue()).toBe('Potassium');
      expect(await field(lang, 'unit').inputValue()).toBe('mmol/L');
      expect(await field(lang, 'referenceLow').inputValue()).toBe('3.5');
      expect(await field(lang, 'referenceHigh').inputValue()).toBe('5.1');
      await typeInto(field(lang, 'labValue'), '7.9');
      await typeInto(field(lang, 'collectedDate'), ddmmyyyy(today));
      await typeInto(field(lang, 'facility'), DOCTOR.facility);
      await noHorizontalScroll(`${lang} lab result dialog`);
      await save(lang, 'lab-results');
      const potassium = sectionList(lang, 'lab-results').getByRole('listitem').filter({ hasText: 'Potassium' });
      await potassium.getByText(tr(lang, 'record:flags.HH'), { exact: true }).waitFor({ state: 'attached' });
      await potassium.getByText(`7.9 mmol/L · ${tr(lang, 'record:item.referenceRange', { range: '3.5–5.1' })}`).waitFor();
      await noHorizontalScroll(`${lang} lab results`);

      // The dashboard: the critical alert, and the result among the recent ones with its flag in words.
      await openSection(lang, 'dashboard');
      const alerts = j.page.getByRole('alert', { name: tr(lang, 'record:dashboard.alertsLabel') });
      await alerts
        .getByText(tr(lang, 'record:alerts.criticalResult', { name: 'Potassium', value: '7.9 mmol/L', flag: tr(lang, 'record:flags.HH') }))
        .waitFor();
      const recent = j.page.getByRole('region', { name: tr(lang, 'record:dashboard.recentResults'), exact: true });
      await recent.getByText('Potassium', { exact: true }).waitFor();
      await recent.getByText(`7.9 mmol/L · ${ddmmyyyy(today)}`).waitFor();
      await recent.getByText(tr(lang, 'record:flags.HH'), { exact: true }).waitFor({ state: 'attached' });
      await noHorizontalScroll(`${lang} dashboard`);
      if (lang === 'en') await noViolations('dashboard with the critical alert'); // the same screen in af and ng
      await screenshot(j.page, `coded-record-375-${lang}`);
    });
  }

  it('left the console clean (a 401 before sign-in and the one 409 asking to confirm aside)', () => {
    expect(j.consoleErrors.filter((e) => !/status of 40[19]/.test(e))).toEqual([]);
  });
});
