// Journey (issue 23, "Done means"): on a 375 px phone, by keyboard only (Tab/Shift+Tab, typing, Enter/Space on
// buttons, Escape), in English, Afrikaans and Oshiwambo (switched with the header's language selector), a doctor
// edits a medication in place (the Edit action opens the add form filled from it; the list shows the edit and focus
// comes back to the Edit button), opens its history (each version, what changed, by whom), and marks a diagnosis
// entered in error with a reason (asked for first; the entry leaves the list, focus goes to the section's heading,
// and its history keeps it with the reason). Once, in Afrikaans, someone else saves the medication while the form
// is open: Save is refused in Afrikaans naming the changed field, nothing is stored, and the current version is
// loaded on request. No horizontal scroll at 375 px, no axe violation, a clean console. Every label is read from the
// locale files.
import { describe, expect, it } from 'vitest';
import { METFORMIN } from '../src/server/test/record-samples';
import { browserAvailable, screenshot } from './support/browser';
import { escapeRegExp, LANGS, tr, usePhoneJourney, type Lang } from './support/phone-journey';

const run = browserAvailable();
const DOCTOR = {
  firstName: 'Ndahafa',
  lastName: 'Shikongo',
  email: 'ndahafa.shikongo@health.gov.na',
  password: 'stethoscope-23',
  facility: 'Onandjokwe Hospital',
};
const NAMES: Record<Lang, { firstName: string; lastName: string }> = {
  en: { firstName: 'Josephina', lastName: 'Amupolo' },
  af: { firstName: 'Johannes', lastName: 'van Wyk' },
  ng: { firstName: 'Ndeshipanda', lastName: 'Nakale' },
};
const DIAGNOSIS = {
  condition: 'Tuberculosis',
  status: 'Active',
  diagnosedDate: '2024-03-10',
  doctor: 'Dr. Ndahafa Shikongo',
  facility: DOCTOR.facility,
};
const REASON = 'Recorded for the wrong patient';

describe.skipIf(!run)(
  'versioned record journey: edit a medication, mark a diagnosis entered in error, by keyboard at 375 px, in en/af/ng',
  () => {
    const j = usePhoneJourney(DOCTOR, NAMES);
    const { isFocused, tabTo, press, typeInto, focused, dialog, field, sectionList, noHorizontalScroll, noViolations, openSection } = j;
    /** Each patient's seeded medication and diagnosis (their ids). */
    const seeded = {} as Record<Lang, { medication: number; diagnosis: number }>;

    const listItem = (lang: Lang, kind: string, text: string) => sectionList(lang, kind).getByRole('listitem').filter({ hasText: text });
    /** A record API call made as the signed-in doctor (the page's own session), for setting up and checking. */
    const api = {
      history: async (kind: string, id: number) => {
        const res = await j.page.request.get(`${j.app.baseUrl}/api/${kind}/${id}/history`);
        expect(res.status()).toBe(200);
        return (await res.json()) as { version: number; action: string; changed: string[]; row: Record<string, unknown> }[];
      },
      list: async (kind: string, patientId: number) => {
        const res = await j.page.request.get(`${j.app.baseUrl}/api/patients/${patientId}/${kind}`);
        expect(res.status()).toBe(200);
        return (await res.json()) as { id: number; version: number; dosage?: string }[];
      },
    };

    it('signs in by keyboard; access to the patients is confirmed; each has a medication and a diagnosis', async () => {
      await j.signIn();
      for (const lang of LANGS) {
        const id = j.patients[lang].id;
        await j.confirmAccess(id);
        const medication = await j.page.request.post(`${j.app.baseUrl}/api/patients/${id}/medications`, {
          data: METFORMIN,
          headers: { 'idempotency-key': crypto.randomUUID() },
        });
        const diagnosis = await j.page.request.post(`${j.app.baseUrl}/api/patients/${id}/diagnoses`, {
          data: DIAGNOSIS,
          headers: { 'idempotency-key': crypto.randomUUID() },
        });
        expect([medication.status(), diagnosis.status()]).toEqual([201, 201]);
        seeded[lang] = {
          medication: ((await medication.json()) as { id: number }).id,
          diagnosis: ((await diagnosis.json()) as { id: number }).id,
        };
      }
    });

    for (const lang of LANGS) {
      it(`${lang}: edits the medication in place, reads its history, and marks the diagnosis entered in error`, async () => {
        // The header's language selector, by keyboard.
        if (lang !== 'en') await j.switchLanguage(lang);
        const patient = j.patients[lang];
        const ids = seeded[lang];
        await j.openRecord(lang, patient);
        await j.editMode(lang);

        // ---- Edit the medication: the add form, filled from it ----
        await openSection(lang, 'medications');
        const editButton = sectionList(lang, 'medications').getByRole('button', {
          name: tr(lang, 'record:actions.editLabel', { name: 'Metformin - 500mg' }),
        });
        await press(editButton, 'Enter');
        await j.page.getByRole('dialog', { name: tr(lang, 'record:edit.medications') }).waitFor();
        expect(await field(lang, 'name').inputValue()).toBe('Metformin');
        expect(await field(lang, 'dosage').inputValue()).toBe('500mg');
        expect(await field(lang, 'prescribedDate').inputValue()).toBe('01/02/2024');
        await tabTo(field(lang, 'dosage'));
        await j.page.keyboard.press('Control+A');
        await j.page.keyboard.type('1000mg');
        await noHorizontalScroll(`${lang} edit dialog`);
        if (lang === 'en') await noViolations('edit dialog');

        if (lang === 'af') {
          // Someone else saves the medication meanwhile: this Save is refused, in Afrikaans, and changes nothing.
          const other = await j.page.request.patch(`${j.app.baseUrl}/api/medications/${ids.medication}`, {
            data: { ...METFORMIN, dosage: '850mg' },
            headers: { 'if-match': '"1"' },
          });
          expect(other.status()).toBe(200);
          await press(dialog().getByRole('button', { name: tr(lang, 'record:form.save'), exact: true }), 'Enter');
          const alert = dialog().getByRole('alert', { name: tr(lang, 'record:conflict.title') });
          await alert.waitFor();
          await expect.poll(focused).toMatchObject({ role: 'alert' });
          await alert.getByText(`${tr(lang, 'record:fields.dosage')}:`).waitFor();
          await alert.getByText('850mg', { exact: true }).waitFor();
          expect(await api.list('medications', patient.id)).toMatchObject([{ id: ids.medication, version: 2, dosage: '850mg' }]);
          await noHorizontalScroll(`${lang} conflict`);
          await noViolations(`${lang} conflict`);
          await screenshot(j.page, 'versioned-record-375-af-conflict');
          await press(alert.getByRole('button', { name: tr(lang, 'record:conflict.load'), exact: true }), 'Enter');
          await dialog().getByText(tr(lang, 'record:conflict.loaded')).waitFor();
          expect(await field(lang, 'dosage').inputValue()).toBe('850mg');
          await tabTo(field(lang, 'dosage'));
          await j.page.keyboard.press('Control+A');
          await j.page.keyboard.type('1000mg');
        }
        await press(dialog().getByRole('button', { name: tr(lang, 'record:form.save'), exact: true }), 'Enter');
        await j.page.getByText(tr(lang, 'record:toast.edited.medications'), { exact: true }).first().waitFor();
        await dialog().waitFor({ state: 'detached' });
        await listItem(lang, 'medications', 'Metformin - 1000mg').waitFor();
        expect(await listItem(lang, 'medications', 'Metformin - 500mg').count()).toBe(0);
        // Focus is back on the Edit button it was opened from (its row is the same entry).
        await expect.poll(focused).toMatchObject({ tag: 'button', text: tr(lang, 'record:actions.edit') });
        const versions = lang === 'af' ? 3 : 2;
        expect(await api.list('medications', patient.id)).toMatchObject([{ id: ids.medication, version: versions, dosage: '1000mg' }]);

        // ---- Its history: every version, what changed ----
        const historyButton = sectionList(lang, 'medications').getByRole('button', {
          name: tr(lang, 'record:actions.historyLabel', { name: 'Metformin - 1000mg' }),
        });
        await press(historyButton, 'Enter');
        const history = j.page.getByRole('dialog', { name: tr(lang, 'record:history.title') });
        const entries = history.getByRole('list', { name: tr(lang, 'record:history.versions') }).getByRole('listitem');
        await expect.poll(() => entries.count()).toBe(versions);
        await entries
          .first()
          .getByText(`${tr(lang, 'record:history.version', { version: '1' })} · ${tr(lang, 'record:history.actions.created')}`)
          .waitFor();
        const last = entries.last();
        await last
          .getByText(`${tr(lang, 'record:history.version', { version: String(versions) })} · ${tr(lang, 'record:history.actions.edited')}`)
          .waitFor();
        await last.getByText(tr(lang, 'record:history.changed', { fields: tr(lang, 'record:fields.dosage') })).waitFor();
        // When (dd/MM/yyyy HH:mm) and by whom.
        const whenBy = escapeRegExp(tr(lang, 'record:history.whenBy', { when: 'WHEN', name: `${DOCTOR.firstName} ${DOCTOR.lastName}` }));
        await last.getByText(new RegExp(`^${whenBy.replace('WHEN', '\\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2}')}$`)).waitFor();
        await noHorizontalScroll(`${lang} history`);
        if (lang === 'en') await noViolations('history dialog');
        await screenshot(j.page, `versioned-record-375-${lang}-history`);
        await j.page.keyboard.press('Escape');
        await history.waitFor({ state: 'detached' });
        // Focus goes back once the dialog has gone (an effect after the unmount): wait for it, a busy machine is slower.
        await expect.poll(() => isFocused(historyButton)).toBe(true);

        // ---- The diagnosis entered in error, with a reason ----
        await openSection(lang, 'diagnoses');
        await press(
          sectionList(lang, 'diagnoses').getByRole('button', {
            name: tr(lang, 'record:actions.enteredInErrorLabel', { name: 'Tuberculosis' }),
          }),
          'Enter',
        );
        const marking = j.page.getByRole('dialog', { name: tr(lang, 'record:enteredInError.title') });
        await marking.getByText(tr(lang, 'record:enteredInError.description', { name: 'Tuberculosis' })).waitFor();
        const confirm = marking.getByRole('button', { name: tr(lang, 'record:enteredInError.confirm'), exact: true });
        // No reason yet: asked for in the user's language, nothing sent.
        await press(confirm, 'Enter');
        await marking.getByText(tr(lang, 'validation:enteredInErrorReasonRequired')).waitFor();
        expect(await api.list('diagnoses', patient.id)).toHaveLength(1);
        await typeInto(marking.getByLabel(new RegExp(`^${escapeRegExp(tr(lang, 'record:enteredInError.reason'))}`)), REASON);
        await noHorizontalScroll(`${lang} entered in error`);
        if (lang === 'en') await noViolations('entered in error dialog');
        await screenshot(j.page, `versioned-record-375-${lang}-entered-in-error`);
        await press(confirm, 'Enter');
        await j.page.getByText(tr(lang, 'record:toast.enteredInError.diagnoses'), { exact: true }).first().waitFor();
        await marking.waitFor({ state: 'detached' });
        await j.page.getByText(tr(lang, 'record:empty.diagnoses'), { exact: true }).waitFor();
        // Its row and button are gone: focus is on the section's heading, never on the j.page body.
        await expect.poll(focused).toMatchObject({ text: tr(lang, 'record:sections.diagnoses') });
        expect(await api.list('diagnoses', patient.id)).toEqual([]);
        const kept = await api.history('diagnoses', ids.diagnosis);
        expect(kept.map((e) => e.action)).toEqual(['created', 'entered-in-error']);
        expect(kept[1]!.row.enteredInErrorReason).toBe(REASON);
        await noHorizontalScroll(`${lang} diagnoses after`);
        await screenshot(j.page, `versioned-record-375-${lang}`);
      });
    }

    it('left the console clean (a 401 before sign-in and the one 409 of the stale edit aside)', () => {
      expect(j.consoleErrors.filter((e) => !/status of 40[19]/.test(e))).toEqual([]);
    });
  },
);
