// Components' way to the translations (in place of react-i18next's hook of the same name): the component re-renders
// when the language changes or a namespace's translations arrive. It never suspends: screens download their
// namespaces before they render (lib/i18n.ts loadNamespaces), as they did with react-i18next, which had no loader to
// wait for here.
import { useSyncExternalStore } from 'react';
import type { NamespaceName } from '../locales';
import i18n from './i18n';
import type { TFunction, Translator } from './translator';

/**
 * `t` for the namespace given (or the first of several; the others only say which namespaces the component's
 * `ns:key` lookups use), `common` without one; `i18n` for the page's language.
 */
export function useTranslation(ns?: NamespaceName | readonly NamespaceName[]): { t: TFunction; i18n: Translator } {
  const first = typeof ns === 'string' ? ns : ns?.[0];
  const t = useSyncExternalStore(i18n.subscribe, () => i18n.current(first));
  return { t, i18n };
}
