// Bundles every locale file: locales/<lang>/<namespace>.json. Nothing is fetched at run time.
type Namespace = Record<string, unknown>;
const files = import.meta.glob<Namespace>('./*/*.json', { eager: true, import: 'default' });

export const resources: Record<string, Record<string, Namespace>> = {};
for (const [path, content] of Object.entries(files)) {
  const [, lang, ns] = /^\.\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
  if (!lang || !ns) continue;
  (resources[lang] ??= {})[ns] = content;
}
