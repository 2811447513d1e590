// Every locale file (locales/<lang>/<namespace>.json) is its own small chunk, loaded on demand: a page downloads
// only the active language's translations, and each screen's namespaces come with that screen (lib/i18n.ts).
// Nothing is fetched from elsewhere at run time.
type Namespace = Record<string, unknown>;

const files = import.meta.glob<Namespace>('./*/*.json', { import: 'default' });

/** The namespaces every page needs (sign-in, setup, shared words and validation messages). */
export const CORE_NAMESPACES = ['common', 'validation', 'auth', 'setup'] as const;
/** The namespaces that come with their screen. */
export const LAZY_NAMESPACES = [
  'record',
  'dashboard',
  'profile',
  'users',
  'audit',
  'search',
  'patients',
  'portal',
  'privacy',
  'security',
] as const;
export type LazyNamespace = (typeof LAZY_NAMESPACES)[number];
export type NamespaceName = (typeof CORE_NAMESPACES)[number] | LazyNamespace;

/** One language's bundle of one namespace (undefined when no such file exists). */
export async function loadBundle(lang: string, ns: NamespaceName): Promise<Namespace | undefined> {
  const load = files[`./${lang}/${ns}.json`];
  return load ? load() : undefined;
}
