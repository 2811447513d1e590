// Journey (issue 22, "Done means"): on a 375 px phone, by keyboard only (Tab/Shift+Tab, typing, the arrow keys and
// Enter in the type-ahead, Enter/Space on buttons), in English, Afrikaans and Oshiwambo (switched with the header's
// language selector), a doctor with confirmed access adds a coded medication from the type-ahead (its ATC code shown
// in the list) and a laboratory result picked from the LOINC catalogue (unit and range filled in from it) whose value
// is critically high: the list says so in words, the Medical Dashboard raises the critical alert and lists it among
// the recent results. Once, the same medication added again is a warning that takes focus, then "Save anyway".
// No horizontal scroll at 375 px, no axe violation, a clean console. Every label is read from the locale files.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { todayIso } from '../src/contracts/calendar';
import { createPatient, type TestPatient } from '../src/server/test/patient-fixtures';
import { createStaffUser } from '../src/server/test/staff';
import { axeViolations } from './support/axe';
import { browserAvailable, launchBrowser, screenshot, watchConsole } from './support/browser';
import { startSeededApp } from './support/record-seed';
import type { RunningApp } from './support/server';

const run = browserAvailable();
const PHONE = { width: 375, height: 740 };
const DOCTOR = {
  firstName: 'Tangeni',
  lastName: 'Amutenya',
  email: 'tangeni.amutenya@health.gov.na',
  password: 'stethoscope-42',
  facility: 'Katutura State Hospital',
};
const LANGS = ['en', 'af', 'ng'] as const;
type Lang = (typeof LANGS)[number];
/** The language selector's names (lib/i18n.ts LANGUAGES). */
const NATIVE: Record<Lang, string> = { en: 'English', af: 'Afrikaans', ng: 'Oshiwambo' };
const NAMES: Record<Lang, { firstName: string; lastName: string }> = {
  en: { firstName: 'Ndinelao', lastName: 'Haufiku' },
  af: { firstName: 'Petrus', lastName: 'Nghidinwa' },
  ng: { firstName: 'Hilma', lastName: 'Iipinge' },
};

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
const today = todayIso();
const ddmmyyyy = (iso: string): string => iso.split('-').reverse().join('/');

describe.skipIf(!run)('coded record journey: a coded medication and a critical lab result, by keyboard at 375 px, in en/af/ng', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let consoleErrors: string[];
  let patients: Record<Lang, TestPatient>;

  beforeAll(async () => {
    const started = await startSeededApp(async (db) => {
      await createStaffUser(db, { roleId: 3, ...DOCTOR });
      const seeded = {} as Record<Lang, TestPatient>;
      for (const lang of LANGS) seeded[lang] = await createPatient(db, NAMES[lang]);
      return seeded;
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
  /** Types into the combobox, then moves with ArrowDown to the suggestion named `option` and picks it with Enter. */
  async function pickSuggestion(
    combobox: Locator,
    typed: string,
    option: RegExp,
    lang: Lang,
    whileOpen?: () => Promise<void>,
  ): Promise<void> {
    await tabTo(combobox);
    await page.keyboard.type(typed);
    const list = page.getByRole('listbox', { name: tr(lang, 'record:coded.suggestions') });
    await list.getByRole('option', { name: option }).waitFor();
    const options = list.getByRole('option');
    for (let i = 0; i < (await options.count()); i++) {
      await page.keyboard.press('ArrowDown');
      const active = await combobox.getAttribute('aria-activedescendant');
      const name = active ? await page.locator(`[id="${active}"]`).textContent() : '';
      if (name && option.test(name)) {
        await whileOpen?.();
        await page.keyboard.press('Enter');
        await list.waitFor({ state: 'hidden' });
        return;
      }
    }
    throw new Error(`ArrowDown never reached ${String(option)}`);
  }

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
  async function save(lang: Lang, kind: string): Promise<void> {
    await press(dialog().getByRole('button', { name: tr(lang, 'record:form.save'), exact: true }), 'Enter');
    await page
      .getByText(tr(lang, `record:toast.added.${kind}`), { exact: true })
      .first()
      .waitFor();
    await dialog().waitFor({ state: 'detached' });
  }
  let axeSeenOpen = false;
  async function addMedication(lang: Lang): Promise<void> {
    const add = page.getByRole('button', { name: tr(lang, 'record:add.medications'), exact: true });
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
    await page.goto(`${app.baseUrl}/login`);
    await typeInto(page.getByLabel(tr('en', 'auth:login.email'), { exact: true }), DOCTOR.email);
    await typeInto(page.getByLabel(new RegExp(`^${tr('en', 'auth:login.password')}`)), DOCTOR.password);
    await press(page.getByRole('button', { name: tr('en', 'auth:login.signIn'), exact: true }), 'Enter');
    await page.getByRole('button', { name: tr('en', 'dashboard:userMenu', { name: `${DOCTOR.firstName} ${DOCTOR.lastName}` }) }).waitFor();
    // The doctor has confirmed access (the patient consented) to each language's patient, through the real API.
    for (const lang of LANGS) {
      const grant = await page.request.post(`${app.baseUrl}/api/patients/${patients[lang].id}/access`, { data: { consent: true } });
      expect(grant.status()).toBe(201);
    }
  });

  for (const lang of LANGS) {
    it(`${lang}: adds a coded medication and a critically high potassium, seen on the list and the dashboard`, async () => {
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
      await page.goto(`${app.baseUrl}/?patient=${patient.id}`);
      await page.getByRole('heading', { name: tr(lang, 'record:dashboard.title') }).waitFor();
      await page.getByRole('heading', { name: `${patient.firstName} ${patient.lastName}` }).waitFor();
      await noHorizontalScroll(`${lang} record`);

      await press(page.getByRole('button', { name: tr(lang, 'record:mode.edit'), exact: true }), 'Space');
      expect(await page.getByRole('button', { name: tr(lang, 'record:mode.edit'), exact: true }).getAttribute('aria-pressed')).toBe('true');

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
        await screenshot(page, `coded-record-375-${lang}-warning`);
        // Nothing stored yet: the record still holds the one amoxicillin.
        const stored = await page.request.get(`${app.baseUrl}/api/patients/${patient.id}/medications`);
        expect(((await stored.json()) as unknown[]).length).toBe(1);
        await press(warning.getByRole('button', { name: tr(lang, 'record:warnings.confirm'), exact: true }), 'Space');
        await page.getByText(tr(lang, 'record:toast.added.medications'), { exact: true }).first().waitFor();
        await dialog().waitFor({ state: 'detached' });
        await expect.poll(() => amoxicillin.count()).toBe(2);
      }

      // A lab result: the test picked from the catalogue fills in unit and range; 7.9 mmol/L is critically high.
      await openSection(lang, 'lab-results');
      await press(page.getByRole('button', { name: tr(lang, 'record:add.lab-results'), exact: true }), 'Enter');
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
      const alerts = page.getByRole('alert', { name: tr(lang, 'record:dashboard.alertsLabel') });
      await alerts
        .getByText(tr(lang, 'record:alerts.criticalResult', { name: 'Potassium', value: '7.9 mmol/L', flag: tr(lang, 'record:flags.HH') }))
        .waitFor();
      const recent = page.getByRole('region', { name: tr(lang, 'record:dashboard.recentResults'), exact: true });
      await recent.getByText('Potassium', { exact: true }).waitFor();
      await recent.getByText(`7.9 mmol/L · ${ddmmyyyy(today)}`).waitFor();
      await recent.getByText(tr(lang, 'record:flags.HH'), { exact: true }).waitFor({ state: 'attached' });
      await noHorizontalScroll(`${lang} dashboard`);
      if (lang === 'en') await noViolations('dashboard with the critical alert'); // the same screen in af and ng
      await screenshot(page, `coded-record-375-${lang}`);
    });
  }

  it('left the console clean (a 401 before sign-in and the one 409 asking to confirm aside)', () => {
    expect(consoleErrors.filter((e) => !/status of 40[19]/.test(e))).toEqual([]);
  });
});
