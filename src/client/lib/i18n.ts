// Languages (SPEC §1): stored preference (localStorage "language"), then the browser, then <html lang>; unknown -> en.
import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { lazyNamespaceBundles, resources, type LazyNamespace } from '../locales';

export const LANGUAGES = [
  { code: 'en', name: 'English', nativeName: 'English' },
  { code: 'af', name: 'Afrikaans', nativeName: 'Afrikaans' },
  { code: 'ng', name: 'Oshiwambo', nativeName: 'Oshiwambo' },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export const LANGUAGE_STORAGE_KEY = 'language';

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources,
    fallbackLng: 'en',
    supportedLngs: LANGUAGES.map((l) => l.code),
    load: 'languageOnly',
    nonExplicitSupportedLngs: true,
    defaultNS: 'common',
    ns: Object.keys(resources.en ?? {}),
    interpolation: { escapeValue: false },
    detection: {
      order: ['localStorage', 'navigator', 'htmlTag'],
      lookupLocalStorage: LANGUAGE_STORAGE_KEY,
      caches: ['localStorage'],
    },
  });

i18n.on('languageChanged', (lng) => {
  document.documentElement.lang = lng;
});
document.documentElement.lang = i18n.resolvedLanguage ?? 'en';

/** Adds a lazily loaded namespace (every language) before its screen renders. */
/** Loads several lazy namespaces at once (a screen and the features it composes). */
export async function loadNamespaces(...names: LazyNamespace[]): Promise<void> {
  await Promise.all(names.map(loadNamespace));
}

export async function loadNamespace(ns: LazyNamespace): Promise<void> {
  if (i18n.hasResourceBundle('en', ns)) return;
  const bundles = await lazyNamespaceBundles(ns);
  for (const [lang, content] of Object.entries(bundles)) i18n.addResourceBundle(lang, ns, content, true, true);
}

export default i18n;
