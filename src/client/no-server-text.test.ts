// Decision 021: the client decides by an error's code, never by the server's English text. This scan fails if
// someone matches a server message again (a regex on error.message, a comparison with a *_MESSAGE constant, or an
// English message the server sends appearing in client code).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function files(dir: string, keep: (f: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full, keep);
    return keep(full) ? [full] : [];
  });
}

const code = (f: string): boolean => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f);
const clientFiles = files(path.join(src, 'client'), code).map((f) => ({ file: path.relative(src, f), text: readFileSync(f, 'utf8') }));

/** The English messages the server sends with its errors: literals given to AppError and the *_MESSAGE constants. */
function serverMessages(): string[] {
  const out = new Set<string>();
  const sources = [...files(path.join(src, 'server'), code), ...files(path.join(src, 'contracts'), code)].map((f) =>
    readFileSync(f, 'utf8'),
  );
  for (const text of sources) {
    for (const m of text.matchAll(/new AppError\(\s*'[A-Z_]+',\s*'([^']{6,})'/g)) out.add(m[1]!);
    for (const m of text.matchAll(/(?<!SUCCESS)_MESSAGE\s*=\s*'([^']{6,})'/g)) out.add(m[1]!);
    for (const m of text.matchAll(/(?:INSUFFICIENT_PERMISSIONS|PATIENT_PORTAL_ONLY)\s*=\s*'([^']+)'/g)) out.add(m[1]!);
  }
  return [...out];
}

/** Ways of reading an error's text: a regex or string test on `.message`, or the old "{status}: " prefix. */
const MESSAGE_MATCHING = [
  /(?<!typeof\s+[\w.?]*)\bmessage\s*(===|!==|==|!=)/,
  /(===|!==|==|!=)\s*[\w.?]*\bmessage\b/,
  /\.message\??\.(includes|startsWith|endsWith|match|search|indexOf)\(/,
  /\.(test|exec|match)\([^)]*\.message\b/,
  /\/\^?\(?\\d\{3\}|\/\^\(?[45]\d\d/,
  /import\s*{[^}]*\b[A-Z_]+_MESSAGE\b[^}]*}\s*from\s*'[./]*contracts\//,
];

describe('the client does not read server error text', () => {
  it('finds the server messages to look for', () => {
    expect(serverMessages()).toEqual(expect.arrayContaining(['Access to this record has not been confirmed', 'Invalid credentials']));
  });

  it('has no English server message in client code', () => {
    const hits = clientFiles.flatMap(({ file, text }) =>
      serverMessages()
        .filter((m) => text.includes(m))
        .map((m) => `${file}: "${m}"`),
    );
    expect(hits).toEqual([]);
  });

  it('never matches an error message by regex or string', () => {
    const hits = clientFiles.flatMap(({ file, text }) =>
      text.split('\n').flatMap((line, i) => (MESSAGE_MATCHING.some((p) => p.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });

  it('catches the patterns it exists for', () => {
    const planted = [
      "if (status === 403) return message === ACCESS_NOT_CONFIRMED_MESSAGE ? 'a' : 'b';",
      'const retry = (n: number, error: Error) => n < 2 && !/^(400|401|403|404):/.test(error.message);',
      "if (error.message.includes('not confirmed')) return;",
      "import { ACCESS_NOT_CONFIRMED_MESSAGE, type RecordPatient } from '../../../../contracts/access';",
    ];
    for (const line of planted)
      expect(
        MESSAGE_MATCHING.some((p) => p.test(line)),
        line,
      ).toBe(true);
  });
});
