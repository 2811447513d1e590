// Journey (issue 23, "Done means"): on a 375 px phone, by keyboard only (Tab/Shift+Tab, typing, Enter/Space on
// buttons, Escape), in English, Afrikaans and Oshiwambo (switched with the header's language selector), a doctor
// edits a medication in place (the Edit action opens the add form filled from it; the list shows the edit and focus
// comes back to the Edit button), opens its history (each version, what changed, by whom), and marks a diagnosis
// entered in error with a reason (asked for first; the entry leaves the list, focus goes to the section's heading,
// and its history keeps it with the reason). Once, in Afrikaans, someone else saves the medication while the form
// is open: Save is refused in Afrikaans naming the changed field, nothing is stored, and the current version is
// loaded on request. No horizontal scroll at 375 px, no axe violation, a clean console. Every label is read from the
// locale files.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { createPatient, type TestPatient } from '../src/server/test/patient-fixtures';
import { createStaffUser } from '../src/server/test/staff';
import { axeViolations } from './support/axe';
import { browserAvailable, launchBrowser, screenshot, watchConsole } from './support/browser';
import { startSeededApp } from './support/record-seed';
import type { RunningApp } from './support/server';

const run = browserAvailable();
const PHONE = { width: 375, height: 740 };
const DOCTOR = {
  firstName: 'Ndahafa',
  lastName: 'Shikongo',
  email: 'ndahafa.shikongo@health.gov.na',
  password: 'stethoscope-23',
  facility: 'Onandjokwe Hospital',
};
const LANGS = ['en', 'af', 'ng'] as const;
type Lang = (typeof LANGS)[number];
/** The language selector's names (lib/i18n.ts LANGUAGES). */
const NATIVE: Record<Lang, string> = { en: 'English', af: 'Afrikaans', ng: 'Oshiwambo' };
const NAMES: Record<Lang, { firstName: string; lastName: string }> = {
  en: { firstName: 'Josephina', lastName: 'Amupolo' },
  af: { firstName: 'Johannes', lastName: 'van Wyk' },
  ng: { firstName: 'Ndeshipanda', lastName: 'Nakale' },
};
const MEDICATION = {
  name: 'Metformin',
  status: 'Active',
  dosage: '500mg',
  frequency: 'Twice daily',
  purpose: 'Type 2 diabetes',
  prescribedDate: '2024-02-01',
  prescribedBy: 'Dr. Ndahafa Shikongo',
};
const DIAGNOSIS = {
  condition: 'Tuberculosis',
  status: 'Active',
  diagnosedDate: '2024-03-10',
  doctor: 'Dr. Ndahafa Shikongo',
  facility: DOCTOR.facility,
};
const REASON = 'Recorded for the wrong patient';

type Tree = { [key: string]: string | Tree };
const bundles = new Map<string, Tree>();
/** A string of locales/<lang>/<ns>.json, with {{values}} filled in: what the user sees in that language. */
function tr(lang: Lang, key: string, values: Record<string, string> = {}): string {
  const [ns, path] = key.split(':') as [string, string];
  const file = `src/client/locales/${lang}/${ns}.json`;
  if (!bundles.has(file)) bundles.set(file, JSON.parse(readFileSync(file, 'utf8')) as Tree);
  let node: string | Tree | undefined = bundles.get(file);
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no ${lang}/${key}`);
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? `{{${name}}}`);
}
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe.skipIf(!run)(
  'versioned record journey: edit a medication, mark a diagnosis entered in error, by keyboard at 375 px, in en/af/ng',
  () => {
    let app: RunningApp;
    let browser: Browser;
    let page: Page;
    let consoleErrors: string[];
    let patients: Record<Lang, TestPatient>;
    /** Each patient's seeded medication and diagnosis (their ids). */
    const seeded = {} as Record<Lang, { medication: number; diagnosis: number }>;

    beforeAll(async () => {
      const started = await startSeededApp(async (db) => {
        await createStaffUser(db, { roleId: 3, ...DOCTOR });
        const made = {} as Record<Lang, TestPatient>;
        for (const lang of LANGS) made[lang] = await createPatient(db, NAMES[lang]);
        return made;
      });
      app = started.app;
      patients = started.seeded;
      browser = await launchBrowser();
      page = await browser.newPage({ locale: 'en-GB', viewport: PHONE, isMobile: true, hasTouch: true });
      page.setDefaultTimeout(15_000);
      consoleErrors = watchConsole(page);
    });
    afterAll(async () => {
      await browser?.close();
      await app?.stop();
    });

    // ---- keyboard only -------------------------------------------------------------------------------------------
    const isFocused = (target: Locator): Promise<boolean> => target.evaluate((el) => el === document.activeElement);
    /**
     * Presses Tab until `target` has focus, or Shift+Tab when it comes before the focused element in the page: it must
     * be reachable by keyboard, within a sensible number of presses.
     */
    async function tabTo(target: Locator, max = 30): Promise<void> {
      await target.waitFor();
      const back = await target.evaluate((el) => {
        const from = document.activeElement;
        return !!from && from !== document.body && (from.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING) !== 0;
      });
      for (let i = 0; i <= max; i++) {
        if (await isFocused(target)) return;
        await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
      }
      throw new Error(`${back ? 'Shift+Tab' : 'Tab'} did not reach ${String(target)} in ${max} presses`);
    }
    async function press(target: Locator, key: 'Enter' | 'Space'): Promise<void> {
      await tabTo(target);
      await page.keyboard.press(key);
    }
    async function typeInto(target: Locator, text: string): Promise<void> {
      await tabTo(target);
      await page.keyboard.type(text);
    }
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        return { tag: el?.tagName.toLowerCase() ?? '', role: el?.getAttribute('role') ?? '', text: (el?.textContent ?? '').trim() };
      });
    // ---- the screen ----------------------------------------------------------------------------------------------
    const dialog = () => page.getByRole('dialog');
    /** A form field by its label, exactly ("Result" is not "Result status"); the required mark is not part of it. */
    const field = (lang: Lang, key: string) => dialog().getByLabel(new RegExp(`^${escape(tr(lang, `record:fields.${key}`))}( \\*)?$`));
    const sectionList = (lang: Lang, kind: string) => page.getByRole('list', { name: tr(lang, `record:sections.${kind}`), exact: true });
    async function noHorizontalScroll(where: string): Promise<void> {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${where}: page ${width} px wide`).toBeLessThanOrEqual(PHONE.width);
      if ((await dialog().count()) > 0) {
        const inner = await dialog().evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
        expect(inner.scroll, `${where}: the dialog scrolls sideways`).toBeLessThanOrEqual(inner.client);
      }
    }
    async function noViolations(where: string): Promise<void> {
      expect(await axeViolations(page), where).toEqual([]);
    }
    /** The phone's collapsed section list: back to its toggle, open it, Enter on the section. */
    async function openSection(lang: Lang, kind: string): Promise<void> {
      const toggle = page.getByRole('button', { name: new RegExp(`^${escape(tr(lang, 'record:sections.label'))}`) });
      await press(toggle, 'Enter');
      const nav = page.getByRole('navigation', { name: tr(lang, 'record:sections.label') });
      await press(nav.getByRole('button', { name: tr(lang, `record:sections.${kind}`), exact: true }), 'Enter');
      await expect.poll(async () => toggle.textContent()).toContain(tr(lang, `record:sections.${kind}`));
      // The list closed under the focused button: focus is back on the toggle, never on the page body.
      expect(await isFocused(toggle)).toBe(true);
    }
    const listItem = (lang: Lang, kind: string, text: string) => sectionList(lang, kind).getByRole('listitem').filter({ hasText: text });
    /** A record API call made as the signed-in doctor (the page's own session), for setting up and checking. */
    const api = {
      history: async (kind: string, id: number) => {
        const res = await page.request.get(`${app.baseUrl}/api/${kind}/${id}/history`);
        expect(res.status()).toBe(200);
        return (await res.json()) as { version: number; action: string; changed: string[]; row: Record<string, unknown> }[];
      },
      list: async (kind: string, patientId: number) => {
        const res = await page.request.get(`${app.baseUrl}/api/patients/${patientId}/${kind}`);
        expect(res.status()).toBe(200);
        return (await res.json()) as { id: number; version: number; dosage?: string }[];
      },
    };

    it('signs in by keyboard; access to the patients is confirmed; each has a medication and a diagnosis', async () => {
      await page.goto(`${app.baseUrl}/login`);
      await typeInto(page.getByLabel(tr('en', 'auth:login.email'), { exact: true }), DOCTOR.email);
      await typeInto(page.getByLabel(new RegExp(`^${tr('en', 'auth:login.password')}`)), DOCTOR.password);
      await press(page.getByRole('button', { name: tr('en', 'auth:login.signIn'), exact: true }), 'Enter');
      await page
        .getByRole('button', { name: tr('en', 'dashboard:userMenu', { name: `${DOCTOR.firstName} ${DOCTOR.lastName}` }) })
        .waitFor();
      for (const lang of LANGS) {
        const id = patients[lang].id;
        const grant = await page.request.post(`${app.baseUrl}/api/patients/${id}/access`, { data: { consent: true } });
        expect(grant.status()).toBe(201);
        const medication = await page.request.post(`${app.baseUrl}/api/patients/${id}/medications`, {
          data: MEDICATION,
          headers: { 'idempotency-key': crypto.randomUUID() },
        });
        const diagnosis = await page.request.post(`${app.baseUrl}/api/patients/${id}/diagnoses`, {
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
        if (lang !== 'en') {
          // The header's language selector, by keyboard: Enter opens it on the current language, ArrowDown to the new one.
          const before = LANGS[LANGS.indexOf(lang) - 1]!;
          const selector = page.getByRole('button', { name: tr(before, 'common:language.choose', { language: NATIVE[before] }) });
          await press(selector, 'Enter');
          const choice = page.locator(`button[lang="${lang}"]`);
          for (let i = 0; i < LANGS.length && !(await isFocused(choice)); i++) await page.keyboard.press('ArrowDown');
          await page.keyboard.press('Enter');
          await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(lang);
          await page.getByRole('button', { name: tr(lang, 'common:language.choose', { language: NATIVE[lang] }) }).waitFor();
        }
        const patient = patients[lang];
        const ids = seeded[lang];
        await page.goto(`${app.baseUrl}/?patient=${patient.id}`);
        await page.getByRole('heading', { name: tr(lang, 'record:dashboard.title') }).waitFor();
        await press(page.getByRole('button', { name: tr(lang, 'record:mode.edit'), exact: true }), 'Space');
        expect(await page.getByRole('button', { name: tr(lang, 'record:mode.edit'), exact: true }).getAttribute('aria-pressed')).toBe(
          'true',
        );

        // ---- Edit the medication: the add form, filled from it ----
        await openSection(lang, 'medications');
        const editButton = sectionList(lang, 'medications').getByRole('button', {
          name: tr(lang, 'record:actions.editLabel', { name: 'Metformin - 500mg' }),
        });
        await press(editButton, 'Enter');
        await page.getByRole('dialog', { name: tr(lang, 'record:edit.medications') }).waitFor();
        expect(await field(lang, 'name').inputValue()).toBe('Metformin');
        expect(await field(lang, 'dosage').inputValue()).toBe('500mg');
        expect(await field(lang, 'prescribedDate').inputValue()).toBe('01/02/2024');
        await tabTo(field(lang, 'dosage'));
        await page.keyboard.press('Control+A');
        await page.keyboard.type('1000mg');
        await noHorizontalScroll(`${lang} edit dialog`);
        if (lang === 'en') await noViolations('edit dialog');

        if (lang === 'af') {
          // Someone else saves the medication meanwhile: this Save is refused, in Afrikaans, and changes nothing.
          const other = await page.request.patch(`${app.baseUrl}/api/medications/${ids.medication}`, {
            data: { ...MEDICATION, dosage: '850mg' },
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
          await screenshot(page, 'versioned-record-375-af-conflict');
          await press(alert.getByRole('button', { name: tr(lang, 'record:conflict.load'), exact: true }), 'Enter');
          await dialog().getByText(tr(lang, 'record:conflict.loaded')).waitFor();
          expect(await field(lang, 'dosage').inputValue()).toBe('850mg');
          await tabTo(field(lang, 'dosage'));
          await page.keyboard.press('Control+A');
          await page.keyboard.type('1000mg');
        }
        await press(dialog().getByRole('button', { name: tr(lang, 'record:form.save'), exact: true }), 'Enter');
        await page.getByText(tr(lang, 'record:toast.edited.medications'), { exact: true }).first().waitFor();
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
        const history = page.getByRole('dialog', { name: tr(lang, 'record:history.title') });
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
        const whenBy = escape(tr(lang, 'record:history.whenBy', { when: 'WHEN', name: `${DOCTOR.firstName} ${DOCTOR.lastName}` }));
        await last.getByText(new RegExp(`^${whenBy.replace('WHEN', '\\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2}')}$`)).waitFor();
        await noHorizontalScroll(`${lang} history`);
        if (lang === 'en') await noViolations('history dialog');
        await screenshot(page, `versioned-record-375-${lang}-history`);
        await page.keyboard.press('Escape');
        await history.waitFor({ state: 'detached' });
        expect(await isFocused(historyButton)).toBe(true);

        // ---- The diagnosis entered in error, with a reason ----
        await openSection(lang, 'diagnoses');
        await press(
          sectionList(lang, 'diagnoses').getByRole('button', {
            name: tr(lang, 'record:actions.enteredInErrorLabel', { name: 'Tuberculosis' }),
          }),
          'Enter',
        );
        const marking = page.getByRole('dialog', { name: tr(lang, 'record:enteredInError.title') });
        await marking.getByText(tr(lang, 'record:enteredInError.description', { name: 'Tuberculosis' })).waitFor();
        const confirm = marking.getByRole('button', { name: tr(lang, 'record:enteredInError.confirm'), exact: true });
        // No reason yet: asked for in the user's language, nothing sent.
        await press(confirm, 'Enter');
        await marking.getByText(tr(lang, 'validation:enteredInErrorReasonRequired')).waitFor();
        expect(await api.list('diagnoses', patient.id)).toHaveLength(1);
        await typeInto(marking.getByLabel(new RegExp(`^${escape(tr(lang, 'record:enteredInError.reason'))}`)), REASON);
        await noHorizontalScroll(`${lang} entered in error`);
        if (lang === 'en') await noViolations('entered in error dialog');
        await screenshot(page, `versioned-record-375-${lang}-entered-in-error`);
        await press(confirm, 'Enter');
        await page.getByText(tr(lang, 'record:toast.enteredInError.diagnoses'), { exact: true }).first().waitFor();
        await marking.waitFor({ state: 'detached' });
        await page.getByText(tr(lang, 'record:empty.diagnoses'), { exact: true }).waitFor();
        // Its row and button are gone: focus is on the section's heading, never on the page body.
        await expect.poll(focused).toMatchObject({ text: tr(lang, 'record:sections.diagnoses') });
        expect(await api.list('diagnoses', patient.id)).toEqual([]);
        const kept = await api.history('diagnoses', ids.diagnosis);
        expect(kept.map((e) => e.action)).toEqual(['created', 'entered-in-error']);
        expect(kept[1]!.row.enteredInErrorReason).toBe(REASON);
        await noHorizontalScroll(`${lang} diagnoses after`);
        await screenshot(page, `versioned-record-375-${lang}`);
      });
    }

    it('left the console clean (a 401 before sign-in and the one 409 of the stale edit aside)', () => {
      expect(consoleErrors.filter((e) => !/status of 40[19]/.test(e))).toEqual([]);
    });
  },
);
