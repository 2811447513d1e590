// Bundles every locale file: locales/<lang>/<namespace>.json. Nothing is fetched from elsewhere at run time.
// Namespaces of lazily loaded screens (LAZY_NAMESPACES) are split out of the first page's JavaScript and loaded
// with their screen (lib/i18n.ts loadNamespace).
type Namespace = Record<string, unknown>;
// The sign-in and setup pages' namespaces are in the first page; every other screen's comes with that screen.
const files = import.meta.glob<Namespace>(['./*/common.json', './*/validation.json', './*/auth.json', './*/setup.json'], {
  eager: true,
  import: 'default',
});
const lazyFiles = import.meta.glob<Namespace>(['./*/*.json', '!./*/common.json', '!./*/validation.json', '!./*/auth.json', '!./*/setup.json'], {
  import: 'default',
});

export const LAZY_NAMESPACES = ['record', 'dashboard', 'profile', 'users', 'audit', 'search', 'patients', 'portal', 'privacy'] as const;
export type LazyNamespace = (typeof LAZY_NAMESPACES)[number];

const parts = (path: string): [string, string] | null => {
  const [, lang, ns] = /^\.\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
  return lang && ns ? [lang, ns] : null;
};

export const resources: Record<string, Record<string, Namespace>> = {};
for (const [path, content] of Object.entries(files)) {
  const p = parts(path);
  if (p) (resources[p[0]] ??= {})[p[1]] = content;
}

/** Every language's bundle of a lazy namespace: { lang: content }. */
export async function lazyNamespaceBundles(ns: LazyNamespace): Promise<Record<string, Namespace>> {
  const out: Record<string, Namespace> = {};
  await Promise.all(
    Object.entries(lazyFiles).map(async ([path, load]) => {
      const p = parts(path);
      if (p && p[1] === ns) out[p[0]] = await load();
    }),
  );
  return out;
}
