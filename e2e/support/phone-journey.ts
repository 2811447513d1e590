// The record's phone journeys (issues 22, 23): on a 375 px phone, by keyboard only, in English, Afrikaans and
// Oshiwambo, a doctor works on one patient per language. This holds what they share: the seeded app and the page,
// every label read from the locale files, the keyboard (Tab/Shift+Tab to a control, Enter/Space on it, typing), the
// screen (the dialog, its fields, a section's list, no sideways scroll, no axe violation) and the steps each takes
// (sign in, confirm access, switch language with the header's selector, open the record in edit mode, open a section).
// Call usePhoneJourney inside a describe block; `app`, `page`, `consoleErrors` and `patients` are set once beforeAll
// has run, and the steps use them then. usePhonePage is the part without the doctor: a seeded app and the phone page.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { createPatient, type TestPatient } from '../../src/server/test/patient-fixtures';
import { createStaffUser } from '../../src/server/test/staff';
import type { Db } from '../../src/server/db/client';
import { axeViolations } from './axe';
import { launchBrowser, watchConsole } from './browser';
import { startSeededApp } from './record-seed';
import type { RunningApp } from './server';

export const PHONE = { width: 375, height: 740 };
export const LANGS = ['en', 'af', 'ng'] as const;
export type Lang = (typeof LANGS)[number];
/** The language selector's names (lib/i18n.ts LANGUAGES). */
const NATIVE: Record<Lang, string> = { en: 'English', af: 'Afrikaans', ng: 'Oshiwambo' };

type Tree = { [key: string]: string | Tree };
const bundles = new Map<string, Tree>();
/** A string of locales/<lang>/<ns>.json, with {{values}} filled in: what the user sees in that language. */
export function tr(lang: Lang, key: string, values: Record<string, string> = {}): string {
  const [ns, path] = key.split(':') as [string, string];
  const file = `src/client/locales/${lang}/${ns}.json`;
  if (!bundles.has(file)) bundles.set(file, JSON.parse(readFileSync(file, 'utf8')) as Tree);
  let node: string | Tree | undefined = bundles.get(file);
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no ${lang}/${key}`);
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? `{{${name}}}`);
}
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface JourneyDoctor {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  facility: string;
}

export interface PhoneJourney {
  app: RunningApp;
  page: Page;
  consoleErrors: string[];
  /** One patient per language, seeded with the doctor. */
  patients: Record<Lang, TestPatient>;
}

export interface PhonePage<T> {
  app: RunningApp;
  page: Page;
  consoleErrors: string[];
  /** What the seed returned. */
  seeded: T;
}

/**
 * The app started on a database seeded by `seed`, and a 375 px phone page (English, touch) opened on it; closed after
 * the block. For journeys that bring their own users (the Admin screens); usePhoneJourney builds on it. `app`, `page`,
 * `consoleErrors` and `seeded` are set once beforeAll has run.
 */
export function usePhonePage<T>(seed: (db: Db) => Promise<T>, timeout = 20_000) {
  const p = {} as PhonePage<T>;
  let browser: Browser | undefined;
  beforeAll(async () => {
    const started = await startSeededApp(seed);
    p.app = started.app;
    p.seeded = started.seeded;
    browser = await launchBrowser();
    p.page = await browser.newPage({ locale: 'en-GB', viewport: PHONE, isMobile: true, hasTouch: true });
    p.page.setDefaultTimeout(timeout);
    p.consoleErrors = watchConsole(p.page);
  });
  afterAll(async () => {
    await browser?.close();
    await p.app?.stop();
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
      await p.page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    }
    throw new Error(`${back ? 'Shift+Tab' : 'Tab'} did not reach ${String(target)} in ${max} presses`);
  }
  async function press(target: Locator, key: 'Enter' | 'Space'): Promise<void> {
    await tabTo(target);
    await p.page.keyboard.press(key);
  }
  async function typeInto(target: Locator, text: string): Promise<void> {
    await tabTo(target);
    await p.page.keyboard.type(text);
  }
  /** The page is no wider than the phone: nothing scrolls sideways. */
  async function noSideways(where = 'page'): Promise<void> {
    const width = await p.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${where}: page ${width} px wide`).toBeLessThanOrEqual(PHONE.width);
  }
  /** No axe violation on the page as it is now. */
  async function noViolations(where: string): Promise<void> {
    expect(await axeViolations(p.page), where).toEqual([]);
  }
  return Object.assign(p, { noSideways, noViolations, isFocused, tabTo, press, typeInto });
}

/** The doctor and one patient per language seeded, the app started, and a 375 px phone page opened on it. */
export function usePhoneJourney(
  doctor: JourneyDoctor,
  names: Record<Lang, { firstName: string; lastName: string }>,
  /** More to seed beside the doctor and the patients (e.g. an auditor). */
  seedMore: (db: Db) => Promise<void> = async () => {},
) {
  const phone = usePhonePage(async (db) => {
    await createStaffUser(db, { roleId: 3, ...doctor });
    const seeded = {} as Record<Lang, TestPatient>;
    for (const lang of LANGS) seeded[lang] = await createPatient(db, names[lang]);
    await seedMore(db);
    return seeded;
  }, 15_000);
  const j = phone as unknown as PhoneJourney;
  beforeAll(() => {
    j.patients = phone.seeded;
  });

  // ---- keyboard only (usePhonePage) ----------------------------------------------------------------------------
  const { isFocused, tabTo, press, typeInto } = phone;
  const focused = () =>
    j.page.evaluate(() => {
      const el = document.activeElement;
      return { tag: el?.tagName.toLowerCase() ?? '', role: el?.getAttribute('role') ?? '', text: (el?.textContent ?? '').trim() };
    });

  // ---- the screen ----------------------------------------------------------------------------------------------
  const dialog = () => j.page.getByRole('dialog');
  /** A form field by its label, exactly ("Result" is not "Result status"); the required mark is not part of it. */
  const field = (lang: Lang, key: string) => dialog().getByLabel(new RegExp(`^${escapeRegExp(tr(lang, `record:fields.${key}`))}( \\*)?$`));
  const sectionList = (lang: Lang, kind: string) => j.page.getByRole('list', { name: tr(lang, `record:sections.${kind}`), exact: true });
  async function noHorizontalScroll(where: string): Promise<void> {
    const width = await j.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${where}: page ${width} px wide`).toBeLessThanOrEqual(PHONE.width);
    if ((await dialog().count()) > 0) {
      const inner = await dialog().evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(inner.scroll, `${where}: the dialog scrolls sideways`).toBeLessThanOrEqual(inner.client);
    }
  }
  const { noViolations } = phone;

  // ---- the steps -----------------------------------------------------------------------------------------------
  /** Signs in through the login page, in English, by keyboard, and waits for the user menu. */
  async function signIn(): Promise<void> {
    await j.page.goto(`${j.app.baseUrl}/login`);
    await typeInto(j.page.getByLabel(tr('en', 'auth:login.email'), { exact: true }), doctor.email);
    await typeInto(j.page.getByLabel(new RegExp(`^${tr('en', 'auth:login.password')}`)), doctor.password);
    await press(j.page.getByRole('button', { name: tr('en', 'auth:login.signIn'), exact: true }), 'Enter');
    await j.page
      .getByRole('button', { name: tr('en', 'dashboard:userMenu', { name: `${doctor.firstName} ${doctor.lastName}` }) })
      .waitFor();
  }
  /** The signed-in doctor confirms access (the patient consented) to the patient's record, through the real API. */
  async function confirmAccess(patientId: number): Promise<void> {
    const grant = await j.page.request.post(`${j.app.baseUrl}/api/patients/${patientId}/access`, { data: { consent: true } });
    expect(grant.status()).toBe(201);
  }
  /** From the language before `lang` in LANGS, by keyboard: Enter opens the selector on it, ArrowDown to `lang`. */
  async function switchLanguage(lang: Lang): Promise<void> {
    const before = LANGS[LANGS.indexOf(lang) - 1]!;
    const selector = j.page.getByRole('button', { name: tr(before, 'common:language.choose', { language: NATIVE[before] }) });
    await press(selector, 'Enter');
    const choice = j.page.locator(`button[lang="${lang}"]`);
    for (let i = 0; i < LANGS.length && !(await isFocused(choice)); i++) await j.page.keyboard.press('ArrowDown');
    await j.page.keyboard.press('Enter');
    await expect.poll(() => j.page.locator('html').getAttribute('lang')).toBe(lang);
    await j.page.getByRole('button', { name: tr(lang, 'common:language.choose', { language: NATIVE[lang] }) }).waitFor();
  }
  /** Opens the patient's record and waits for its Medical Dashboard. */
  async function openRecord(lang: Lang, patient: TestPatient): Promise<void> {
    await j.page.goto(`${j.app.baseUrl}/?patient=${patient.id}`);
    await j.page.getByRole('heading', { name: tr(lang, 'record:dashboard.title') }).waitFor();
  }
  /** Turns on the record's edit mode with Space on its toggle. */
  async function editMode(lang: Lang): Promise<void> {
    const toggle = j.page.getByRole('button', { name: tr(lang, 'record:mode.edit'), exact: true });
    await press(toggle, 'Space');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
  }
  /** The phone's collapsed section list: back to its toggle, open it, Enter on the section. */
  async function openSection(lang: Lang, kind: string): Promise<void> {
    const toggle = j.page.getByRole('button', { name: new RegExp(`^${escapeRegExp(tr(lang, 'record:sections.label'))}`) });
    await press(toggle, 'Enter');
    const nav = j.page.getByRole('navigation', { name: tr(lang, 'record:sections.label') });
    await press(nav.getByRole('button', { name: tr(lang, `record:sections.${kind}`), exact: true }), 'Enter');
    await expect.poll(async () => toggle.textContent()).toContain(tr(lang, `record:sections.${kind}`));
    // The list closed under the focused button: focus is back on the toggle, never on the page body.
    expect(await isFocused(toggle)).toBe(true);
  }

  /** Types into the combobox, then moves with ArrowDown to the suggestion named `option` and picks it with Enter. */
  async function pickSuggestion(
    combobox: Locator,
    typed: string,
    option: RegExp,
    lang: Lang,
    whileOpen?: () => Promise<void>,
  ): Promise<void> {
    await tabTo(combobox);
    await j.page.keyboard.type(typed);
    const list = j.page.getByRole('listbox', { name: tr(lang, 'record:coded.suggestions') });
    await list.getByRole('option', { name: option }).waitFor();
    const options = list.getByRole('option');
    for (let i = 0; i < (await options.count()); i++) {
      await j.page.keyboard.press('ArrowDown');
      const active = await combobox.getAttribute('aria-activedescendant');
      const name = active ? await j.page.locator(`[id="${active}"]`).textContent() : '';
      if (name && option.test(name)) {
        await whileOpen?.();
        await j.page.keyboard.press('Enter');
        await list.waitFor({ state: 'hidden' });
        return;
      }
    }
    throw new Error(`ArrowDown never reached ${String(option)}`);
  }

  return Object.assign(j, {
    isFocused,
    pickSuggestion,
    tabTo,
    press,
    typeInto,
    focused,
    dialog,
    field,
    sectionList,
    noHorizontalScroll,
    noViolations,
    signIn,
    confirmAccess,
    switchLanguage,
    openRecord,
    editMode,
    openSection,
  });
}
