// Decision 021: every code the server can produce has a translated message in en, af and ng, and every code in the
// vocabulary is produced somewhere (no dead entries that would hide a renamed code).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorCodes, errorStatus } from './errors';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LANGS = ['en', 'af', 'ng'] as const;

function files(dir: string, keep: (f: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full, keep);
    return keep(full) ? [full] : [];
  });
}

const serverSource = files(path.join(root, 'server'), (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');

describe('error vocabulary', () => {
  it.each(LANGS)('has a message for every code in %s/common.json errors', (lang) => {
    const messages = (
      JSON.parse(readFileSync(path.join(root, 'client', 'locales', lang, 'common.json'), 'utf8')) as { errors: Record<string, unknown> }
    ).errors;
    const missing = errorCodes.filter((code) => typeof messages[code] !== 'string' || (messages[code] as string).trim() === '');
    expect(missing, `${lang}: codes without a message`).toEqual([]);
    expect(
      Object.keys(messages).filter((k) => !errorCodes.includes(k as never)),
      `${lang}: messages of unknown codes`,
    ).toEqual([]);
  });

  it('gives every code a 4xx or 5xx status', () => {
    for (const code of errorCodes) expect(errorStatus[code], code).toBeGreaterThanOrEqual(400);
  });

  it('lists only codes the server produces', () => {
    const unused = errorCodes.filter((code) => !serverSource.includes(`'${code}'`));
    expect(unused, 'codes no server file names').toEqual([]);
  });
});
