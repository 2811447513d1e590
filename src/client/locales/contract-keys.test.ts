// Every message key the shared schemas can produce exists in the locale files, so no user sees a raw key.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const contractsDir = path.resolve(here, '../../contracts');

function has(tree: Record<string, unknown>, dotted: string): boolean {
  let node: unknown = tree;
  for (const part of dotted.split('.')) {
    if (typeof node !== 'object' || node === null || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string';
}

describe('contract message keys', () => {
  const source = readdirSync(contractsDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => readFileSync(path.join(contractsDir, f), 'utf8'))
    .join('\n');
  const keys = [...new Set([...source.matchAll(/'([a-z]+):([A-Za-z.]+)'/g)].map((m) => `${m[1]}:${m[2]}`))];

  it('finds the keys', () => expect(keys.length).toBeGreaterThan(20));
  it.each(['en', 'af', 'ng'])('are all translated in %s', (lang) => {
    const missing = keys.filter((k) => {
      const [ns, key] = k.split(':') as [string, string];
      const file = path.join(here, lang, `${ns}.json`);
      try {
        return !has(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>, key);
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });
});
