// The three languages must have identical keys, and af/ng must be translated, not copies of en.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = path.dirname(fileURLToPath(import.meta.url));
const LANGS = ['en', 'af', 'ng'] as const;
/** Values that are rightly the same in every language: names, codes, placeholders only. */
const SAME_ALLOWED = new Set<string>(JSON.parse(readFileSync(path.join(dir, 'same-in-all-languages.json'), 'utf8')) as string[]);

type Tree = { [k: string]: string | Tree };
const load = (lang: string, ns: string): Tree => JSON.parse(readFileSync(path.join(dir, lang, ns), 'utf8')) as Tree;
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const namespaces = readdirSync(path.join(dir, 'en')).filter((f) => f.endsWith('.json'));

describe('locales', () => {
  it('has the same namespace files in every language', () => {
    // Beside them, each language's bundle files core.ts and staff.ts (bundles.test.ts).
    for (const lang of LANGS) {
      expect(readdirSync(path.join(dir, lang)).sort()).toEqual([...namespaces, 'core.ts', 'staff.ts'].sort());
    }
  });

  it.each(namespaces)('%s has identical keys in en, af and ng', (ns) => {
    const en = [...flatten(load('en', ns)).keys()].sort();
    for (const lang of ['af', 'ng']) expect([...flatten(load(lang, ns)).keys()].sort(), `${lang}/${ns}`).toEqual(en);
  });

  it.each(namespaces)('%s is translated in af and ng (no copies of en)', (ns) => {
    const en = flatten(load('en', ns));
    for (const lang of ['af', 'ng']) {
      const copies = [...flatten(load(lang, ns))]
        .filter(([k, v]) => en.get(k) === v && !SAME_ALLOWED.has(`${ns.replace('.json', '')}:${k}`))
        .map(([k]) => k);
      expect(copies, `${lang}/${ns} values copied from en`).toEqual([]);
    }
  });

  it('keeps interpolation placeholders in every translation', () => {
    for (const ns of namespaces) {
      const en = flatten(load('en', ns));
      for (const lang of ['af', 'ng']) {
        for (const [k, v] of flatten(load(lang, ns))) {
          const want = (en.get(k)?.match(/{{\w+}}/g) ?? []).sort();
          expect((v.match(/{{\w+}}/g) ?? []).sort(), `${lang}/${ns} ${k}`).toEqual(want);
        }
      }
    }
  });
});
