// Every locale file (locales/<lang>/<namespace>.json) is loaded on demand, alone or in a bundle (bundles.ts):
// a page downloads only the active language's translations, and each screen's namespaces come with that screen
// (lib/i18n.ts).
// Nothing is fetched from elsewhere at run time.
import { LOCALE_BUNDLES, type NamespaceName } from './bundles';

export { CORE_NAMESPACES, LAZY_NAMESPACES, STAFF_NAMESPACES, type LazyNamespace, type NamespaceName } from './bundles';

type Namespace = Record<string, unknown>;

/** Each language's bundles (core.ts, staff.ts). */
const bundles = import.meta.glob<Partial<Record<NamespaceName, Namespace>>>('./*/{core,staff}.ts', { import: 'default' });
/** The namespaces that travel alone: every JSON file that no bundle imports (a test checks the two agree). */
const files = import.meta.glob<Namespace>(
  ['./*/*.json', '!./*/{common,validation,auth,setup,dashboard,profile,users,audit,search,patients,security}.json'],
  { import: 'default' },
);

/** One language's translations of one namespace (undefined when no such file exists). */
export async function loadBundle(lang: string, ns: NamespaceName): Promise<Namespace | undefined> {
  const bundle = LOCALE_BUNDLES[ns];
  if (bundle) {
    const load = bundles[`./${lang}/${bundle}.ts`];
    return load ? (await load())[ns] : undefined;
  }
  const load = files[`./${lang}/${ns}.json`];
  return load ? load() : undefined;
}
