// Every namespace of every language reaches the browser exactly as its JSON file says, whether it travels alone or in
// a bundle (bundles.ts), and the namespace lists name every JSON file.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CORE_NAMESPACES, LAZY_NAMESPACES, LOCALE_BUNDLES, STAFF_NAMESPACES } from './bundles';
import { loadBundle } from './index';

const dir = path.dirname(fileURLToPath(import.meta.url));
const LANGS = ['en', 'af', 'ng'] as const;
const ALL = [...CORE_NAMESPACES, ...LAZY_NAMESPACES];

describe('translation bundles', () => {
  it('list every namespace file once', () => {
    const files = readdirSync(path.join(dir, 'en'))
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''));
    expect([...ALL].sort()).toEqual(files.sort());
    expect(Object.keys(LOCALE_BUNDLES).sort()).toEqual([...ALL].sort());
  });

  it('put the first page in core and the dashboard in staff', () => {
    for (const ns of CORE_NAMESPACES) expect(LOCALE_BUNDLES[ns], ns).toBe('core');
    for (const ns of STAFF_NAMESPACES) expect(LOCALE_BUNDLES[ns], ns).toBe('staff');
    const bundled = Object.entries(LOCALE_BUNDLES).filter(([, b]) => b !== null);
    expect(bundled.map(([ns]) => ns).sort()).toEqual([...CORE_NAMESPACES, ...STAFF_NAMESPACES].sort());
  });

  it('load each namespace of each language as its JSON file', async () => {
    for (const lang of LANGS) {
      for (const ns of ALL) {
        const file = JSON.parse(readFileSync(path.join(dir, lang, `${ns}.json`), 'utf8')) as unknown;
        expect(await loadBundle(lang, ns), `${lang}/${ns}`).toEqual(file);
      }
    }
  });

  it('load nothing for a language that does not exist', async () => {
    expect(await loadBundle('xx', 'common')).toBeUndefined();
    expect(await loadBundle('xx', 'record')).toBeUndefined();
  });
});
