// Languages (SPEC §1): stored preference (localStorage "language"), then the browser, then <html lang>; unknown -> en
// (detectLanguage).
// Only the active language's translations are downloaded (DESIGN.md §10): startI18n loads its core namespaces
// before the first render, loadNamespaces adds a screen's namespaces, changeLanguage loads the new language's
// copies of everything loaded so far before switching. Keys are identical in the three languages (a test checks),
// so no fallback language needs to be downloaded.
import { CORE_NAMESPACES, loadBundle, type LazyNamespace, type NamespaceName } from '../locales';
import { Translator, type Resources, type TFunction } from './translator';

export const LANGUAGES = [
  { code: 'en', name: 'English', nativeName: 'English' },
  { code: 'af', name: 'Afrikaans', nativeName: 'Afrikaans' },
  { code: 'ng', name: 'Oshiwambo', nativeName: 'Oshiwambo' },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export const LANGUAGE_STORAGE_KEY = 'language';

const isLanguage = (code: string): code is LanguageCode => LANGUAGES.some((l) => l.code === code);

/** The `language` cookie lasts a year, like the stored choice it mirrors. */
const COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** Storage can be refused (a private window, a blocked site): then the language is the browser's, every visit. */
function storedLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * The page's language (SPEC §1): the stored choice, then the browser's languages in its order of preference (af-ZA is
 * af), then `<html lang>` (the server's pick: index-page.ts), then English. A few lines instead of
 * i18next-browser-languagedetector, which the sign-in pages downloaded before their form worked (issue 21 item 18).
 */
export function detectLanguage(): LanguageCode {
  const candidates = [storedLanguage(), ...navigator.languages, navigator.language, document.documentElement.lang];
  for (const candidate of candidates) {
    const code = candidate?.trim().toLowerCase().split(/[-_]/)[0] ?? '';
    if (isLanguage(code)) return code;
  }
  return 'en';
}

/**
 * Keeps the language in local storage (the stored choice) and in the `language` cookie, which tells the server the
 * language of the next page, so it comes with its translations preloaded (index-page.ts).
 */
function remember(code: LanguageCode): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, code);
  } catch {
    // Not stored: the cookie still tells the server.
  }
  document.cookie = `${LANGUAGE_STORAGE_KEY}=${code}; max-age=${COOKIE_MAX_AGE}; path=/; samesite=strict`;
}

/** The page's translator: English and empty until startI18n has detected the language and added its translations. */
const i18n = new Translator('en', 'common');

/** The namespaces the page uses so far (core plus every screen's loaded since). */
const wanted = new Set<NamespaceName>(CORE_NAMESPACES);

async function ensure(lang: LanguageCode, names: Iterable<NamespaceName>): Promise<void> {
  await Promise.all(
    [...names]
      .filter((ns) => !i18n.hasResourceBundle(lang, ns))
      .map(async (ns) => {
        const content = await loadBundle(lang, ns);
        if (content) i18n.addResourceBundle(lang, ns, content as Resources);
      }),
  );
}

const activeLanguage = (): LanguageCode => (isLanguage(i18n.language) ? i18n.language : 'en');

/** startI18n's work, once: preloadNamespaces waits for it (the language must be known first). */
let started: Promise<void> | undefined;

/** Detects the language, downloads its core translations, and switches to it; awaited before the first render. */
export function startI18n(): Promise<void> {
  started ??= start();
  return started;
}

async function start(): Promise<void> {
  const lang = detectLanguage();
  await ensure(lang, wanted);
  show(lang);
}

/** Makes `lang` the page's language: translations, `<html lang>`, and the remembered choice. */
function show(lang: LanguageCode): void {
  i18n.changeLanguage(lang);
  document.documentElement.lang = lang;
  remember(lang);
}

/** Downloads the translations of a screen's namespaces (active language only) before the screen renders. */
export async function loadNamespaces(...names: LazyNamespace[]): Promise<void> {
  for (const ns of names) wanted.add(ns);
  await ensure(activeLanguage(), names);
}

/**
 * Starts downloading a screen's translations before the screen is rendered (first-requests.ts: as soon as the
 * signed-in user is known), once the language is known; a failure is left to the screen's own loadNamespaces.
 */
export function preloadNamespaces(...names: LazyNamespace[]): void {
  if (!started) return;
  started.then(() => loadNamespaces(...names)).catch(() => undefined);
}

export async function loadNamespace(ns: LazyNamespace): Promise<void> {
  await loadNamespaces(ns);
}

/**
 * A translation function in a language other than the page's (a printed slip in the patient's language): downloads
 * that language's copy of the namespace first.
 */
export async function translatorFor(lang: LanguageCode, ns: LazyNamespace): Promise<TFunction> {
  await ensure(lang, [ns]);
  return i18n.getFixedT(lang, ns);
}

/** Switches language after downloading that language's copy of every namespace in use. */
export async function changeLanguage(code: LanguageCode): Promise<void> {
  await ensure(code, wanted);
  show(code);
}

export default i18n;
