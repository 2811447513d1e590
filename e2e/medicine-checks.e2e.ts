// Journey (issue 25, "Done means", the medicine half): on a 375 px phone, by keyboard only, a doctor adds amoxicillin
// for a patient allergic to penicillin, sees the interruption (contraindicated, with the statement and the knowledge
// version), overrides it with a reason, and finds the finding in the medicine's details; an auditor then sees the
// override in the privacy review (who, patient, medicine, reason, knowledge version) and in the monthly report, in
// Afrikaans. No sideways scroll, no axe violation, a clean console. Every label is read from the locale files.
import { describe, expect, it } from 'vitest';
import { ATC_SYSTEM } from '../src/contracts/code-systems';
import { todayIso } from '../src/contracts/calendar';
import { SAMPLE_INPUTS } from '../src/server/test/record-samples';
import { createStaffUser } from '../src/server/test/staff';
import { browserAvailable, screenshot } from './support/browser';
import { tr, usePhoneJourney } from './support/phone-journey';

const run = browserAvailable();
const DOCTOR = {
  firstName: 'Tangeni',
  lastName: 'Amutenya',
  email: 'tangeni.amutenya@health.gov.na',
  password: 'stethoscope-42',
  facility: 'Katutura State Hospital',
};
const AUDITOR = { firstName: 'Hilma', lastName: 'Shikongo', email: 'hilma.shikongo@health.gov.na', password: 'auditor-windhoek-3' };
const NAMES = {
  en: { firstName: 'Ndinelao', lastName: 'Haufiku' },
  af: { firstName: 'Petrus', lastName: 'Nghidinwa' },
  ng: { firstName: 'Hilma', lastName: 'Iipinge' },
};
const REASON = 'Skin test negative in 2025, allergist advice';
const ddmmyyyy = (iso: string): string => iso.split('-').reverse().join('/');

describe.skipIf(!run)('medicine checks journey: an override by a doctor, seen by an auditor, by keyboard at 375 px', () => {
  const j = usePhoneJourney(DOCTOR, NAMES, async (db) => {
    await createStaffUser(db, { roleId: 6, ...AUDITOR, facility: 'Windhoek Central Hospital' });
  });
  const { tabTo, press, typeInto, focused, dialog, field, sectionList, noHorizontalScroll, noViolations, openSection, pickSuggestion } = j;

  it('a doctor sees the interruption for amoxicillin against a penicillin allergy and overrides it with a reason', async () => {
    await j.signIn();
    const patient = j.patients.en;
    await j.confirmAccess(patient.id);
    const allergy = await j.page.request.post(`${j.app.baseUrl}/api/patients/${patient.id}/allergies`, {
      data: { ...SAMPLE_INPUTS.allergies, code: 'J01C', codeSystem: ATC_SYSTEM },
    });
    expect(allergy.status()).toBe(201);
    await j.openRecord('en', patient);
    await j.editMode('en');
    await openSection('en', 'medications');
    await press(j.page.getByRole('button', { name: tr('en', 'record:add.medications'), exact: true }), 'Enter');
    await dialog().waitFor();
    await pickSuggestion(field('en', 'name'), 'amox', /^amoxicillin\s*J01CA04$/, 'en');
    await typeInto(field('en', 'dosage'), '500mg');
    await typeInto(field('en', 'frequency'), '3x daily');
    await typeInto(field('en', 'purpose'), 'Chest infection');
    await typeInto(field('en', 'prescribedDate'), ddmmyyyy(todayIso()));
    await typeInto(field('en', 'prescribedBy'), 'Dr. Tangeni Amutenya');
    await press(dialog().getByRole('button', { name: tr('en', 'record:form.save'), exact: true }), 'Enter');

    // The interruption: contraindicated, both names, the statement, the knowledge version; it takes focus.
    const warning = dialog().getByRole('alert', { name: tr('en', 'record:warnings.title') });
    await warning
      .getByText(tr('en', 'record:warnings.MEDICINE_ALLERGY_CONTRAINDICATED', { substance: 'amoxicillin', other: 'Penicillin' }))
      .waitFor();
    await expect.poll(focused).toMatchObject({ role: 'alert' });
    await warning.getByText(tr('en', 'record:medicineChecks.tier.contraindicated'), { exact: true }).waitFor();
    await warning.getByText('The allergy (Penicillin) includes this medicine', { exact: false }).waitFor();
    expect(await warning.textContent()).toMatch(/2026-11-26\.2\+[0-9a-f]{8}/);
    const saveAnyway = warning.getByRole('button', { name: tr('en', 'record:warnings.confirm'), exact: true });
    expect(await saveAnyway.isDisabled()).toBe(true); // a reason first
    await noHorizontalScroll('interruption');
    await noViolations('interruption');
    await screenshot(j.page, 'medicine-checks-375-interruption');
    await typeInto(
      warning.getByLabel(new RegExp(`^${tr('en', 'record:medicineChecks.overrideReason').replace(/[()?]/g, '\\$&')}`)),
      REASON,
    );
    await press(saveAnyway, 'Enter');
    await j.page.getByText(tr('en', 'record:toast.added.medications'), { exact: true }).first().waitFor();
    await dialog().waitFor({ state: 'detached' });

    // The medicine's details list the finding, closed until opened by keyboard.
    const amoxicillin = sectionList('en', 'medications').getByRole('listitem').filter({ hasText: 'amoxicillin - 500mg' });
    const details = amoxicillin.getByText(tr('en', 'record:medicineChecks.details', { count: '1' }), { exact: true });
    await tabTo(details);
    await j.page.keyboard.press('Enter');
    await amoxicillin.getByText('The allergy (Penicillin) includes this medicine', { exact: false }).waitFor();
    await noHorizontalScroll('medicine details');
    await screenshot(j.page, 'medicine-checks-375-details');
  });

  it('an auditor sees the override in the privacy review and in the monthly report, in Afrikaans', async () => {
    await j.page.context().clearCookies();
    await j.page.goto(`${j.app.baseUrl}/login`);
    await typeInto(j.page.getByLabel(tr('en', 'auth:login.email'), { exact: true }), AUDITOR.email);
    await typeInto(j.page.getByLabel(new RegExp(`^${tr('en', 'auth:login.password')}`)), AUDITOR.password);
    await press(j.page.getByRole('button', { name: tr('en', 'auth:login.signIn'), exact: true }), 'Enter');
    await j.page.getByRole('button', { name: tr('en', 'dashboard:userMenu', { name: 'Hilma Shikongo' }) }).waitFor();
    await j.switchLanguage('af');

    await j.page.goto(`${j.app.baseUrl}/audit/reviews`);
    const overrides = j.page.getByRole('region', { name: tr('af', 'privacy:overrides.title') });
    await overrides
      .getByText(tr('af', 'record:warnings.MEDICINE_ALLERGY_CONTRAINDICATED', { substance: 'amoxicillin', other: 'Penicillin' }))
      .waitFor();
    const text = (await overrides.textContent()) ?? '';
    expect(text).toContain('Tangeni Amutenya');
    expect(text).toContain('Ndinelao Haufiku');
    expect(text).toContain(REASON);
    expect(text).toMatch(/2026-11-26\.2\+[0-9a-f]{8} · atc-hierarchy/);
    await noHorizontalScroll('overrides in the review');
    await noViolations('overrides in the review');
    await screenshot(j.page, 'medicine-checks-375-af-overrides');

    await j.page.goto(`${j.app.baseUrl}/audit`);
    // The tab list has one stop (the selected tab); the arrow keys move along it.
    await tabTo(j.page.getByRole('tab', { name: tr('af', 'audit:logsTab'), exact: true }));
    const tab = j.page.getByRole('tab', { name: tr('af', 'audit:medicineReport.tab'), exact: true });
    // One arrow at a time, each waited for (a press landing before the last one's focus move would pass the tab by).
    const focusedText = () => j.page.evaluate(() => document.activeElement?.textContent ?? '');
    for (let i = 0; i < 6 && !(await j.isFocused(tab)); i++) {
      const before = await focusedText();
      await j.page.keyboard.press('ArrowRight');
      await expect.poll(focusedText).not.toBe(before);
    }
    expect(await j.isFocused(tab)).toBe(true);
    await j.page.keyboard.press('Enter');
    const months = j.page.getByRole('list', { name: tr('af', 'audit:medicineReport.months') });
    await months.waitFor();
    const counts = tr('af', 'audit:medicineReport.counts', { total: '1', contraindicated: '1', serious: '0', minor: '0' });
    expect(await months.textContent()).toContain(`${tr('af', 'audit:medicineReport.overridden')}: ${counts}`);
    await j.page.getByText(REASON, { exact: false }).waitFor();
    await noHorizontalScroll('monthly report');
    await noViolations('monthly report');
    await screenshot(j.page, 'medicine-checks-375-af-report');
    // The 401 of the signed-out page's who-am-I and the 409 of the interruption are the protocol, not errors.
    expect(j.consoleErrors.filter((e) => !/status of 40[19]/.test(e))).toEqual([]);
  });
});
