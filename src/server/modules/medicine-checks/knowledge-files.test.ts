// The knowledge files shipped in catalogues/ load and hold what decision 043 promises (Phansalkar's 15 pairs, the ARV
// interactions, each rule with a known source), and every kind of damage to a file is refused with its name and line.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CATALOGUE_DIR } from '../codes/catalogue-files';
import { STATEMENT_LANGUAGES } from '../../../contracts/medicine-checks';
import { KNOWLEDGE_FILES, readMedicineKnowledge, TEXT_KEYS } from './knowledge-files';
import { allergyFinding, interactionFindings } from './medicine-checks.service';

const knowledge = readMedicineKnowledge(CATALOGUE_DIR);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of the knowledge files with one file's text changed. */
function damaged(file: string, change: (text: string) => string | null): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'nhr-knowledge-'));
  dirs.push(dir);
  for (const name of Object.values(KNOWLEDGE_FILES)) cpSync(path.join(CATALOGUE_DIR, name), path.join(dir, name));
  const next = change(readFileSync(path.join(dir, file), 'utf8'));
  if (next === null) rmSync(path.join(dir, file));
  else writeFileSync(path.join(dir, file), next);
  return dir;
}

describe('the shipped knowledge', () => {
  it('has a version naming the declared version and a digest of the files', () => {
    expect(knowledge.version).toMatch(/^2026-11-26\.2\+[0-9a-f]{8}$/);
  });

  it("holds Phansalkar's 15 high-priority pairs and the ARV interactions, each from a listed source", () => {
    expect(knowledge.interactions.filter((r) => r.source === 'phansalkar-2012')).toHaveLength(15);
    for (const id of [
      'arv-rifampicin-dolutegravir',
      'arv-rifampicin-nevirapine',
      'arv-efavirenz-hormonal-contraception',
      'rifampicin-hormonal-contraception',
    ])
      expect(knowledge.interactions.map((r) => r.id)).toContain(id);
    for (const r of [...knowledge.interactions, ...knowledge.allergyClasses]) expect(knowledge.sources.has(r.source), r.id).toBe(true);
  });

  it('matches a penicillin allergy to amoxicillin and co-amoxiclav, and an amoxicillin allergy to other penicillins', () => {
    const penicillin = { code: 'J01C', label: 'Penicillin' };
    expect(allergyFinding(knowledge, penicillin, { code: 'J01CA04', label: 'amoxicillin' }, 'a', 'b')?.tier).toBe('contraindicated');
    expect(
      allergyFinding(knowledge, { code: 'J01CA04', label: 'amoxicillin' }, { code: 'J01CE01', label: 'benzylpenicillin' }, 'a', 'b')?.rule,
    ).toBe('penicillins-within-class');
    expect(allergyFinding(knowledge, penicillin, { code: 'J01DD04', label: 'ceftriaxone' }, 'a', 'b')?.tier).toBe('serious');
    expect(allergyFinding(knowledge, penicillin, { code: 'N02BE01', label: 'paracetamol' }, 'a', 'b')).toBeNull();
  });

  it('finds an interaction either way round and never between a medicine and itself', () => {
    const rif = { code: 'J04AB02', label: 'rifampicin' };
    const dtg = { code: 'J05AJ03', label: 'dolutegravir' };
    expect(interactionFindings(knowledge, rif, dtg).map((f) => f.rule)).toEqual(['arv-rifampicin-dolutegravir']);
    expect(interactionFindings(knowledge, dtg, rif).map((f) => f.rule)).toEqual(['arv-rifampicin-dolutegravir']);
    expect(interactionFindings(knowledge, rif, rif)).toEqual([]);
  });
});

describe('the statements in English, Afrikaans and Oshiwambo (decision 045)', () => {
  it('gives every rule a statement in each language, each its own text', () => {
    for (const rule of [...knowledge.interactions, ...knowledge.allergyClasses]) {
      for (const l of STATEMENT_LANGUAGES) expect(rule.statements[l].length, `${rule.id} ${l}`).toBeGreaterThanOrEqual(10);
      expect(new Set(Object.values(rule.statements)).size, rule.id).toBe(3);
    }
  });

  it('holds every text key in each language, and the card summaries say what the client says for the same code', () => {
    const locales = path.resolve(CATALOGUE_DIR, '../src/client/locales');
    for (const key of Object.keys(TEXT_KEYS)) expect(knowledge.texts.has(key), key).toBe(true);
    for (const l of STATEMENT_LANGUAGES) {
      const warnings = (JSON.parse(readFileSync(path.join(locales, l, 'record.json'), 'utf8')) as { warnings: Record<string, string> })
        .warnings;
      for (const [key, texts] of knowledge.texts) {
        if (warnings[key] !== undefined) expect(texts[l], `${l} ${key}`).toBe(warnings[key]!.replace(/\{\{(\w+)\}\}/g, '{$1}'));
      }
    }
  });
});

describe('a damaged file is refused with its name', () => {
  it.each([
    ['a missing file', KNOWLEDGE_FILES.interactions, () => null, /medicine-interactions\.tsv: missing/],
    [
      'an unknown tier',
      KNOWLEDGE_FILES.interactions,
      (s: string) => s.replace('\tcontraindicated\t', '\tdeadly\t'),
      /line 2: tier "deadly"/,
    ],
    [
      'a malformed ATC code',
      KNOWLEDGE_FILES.allergyClasses,
      (s: string) => s.replace('\tJ01C\tJ01C\t', '\tpenicillin\tJ01C\t'),
      /allergy-classes\.tsv: line 2/,
    ],
    ['a source not listed', KNOWLEDGE_FILES.interactions, (s: string) => s.replace('phansalkar-2012', 'somewhere'), /source "somewhere"/],
    [
      'a repeated id',
      KNOWLEDGE_FILES.allergyClasses,
      (s: string) => s.replace('penicillins-to-cephalosporins', 'penicillins-within-class'),
      /repeated/,
    ],
    ['a header without a column', KNOWLEDGE_FILES.interactions, (s: string) => s.replace('statement', 'note'), /header must name/],
    ['an empty file', KNOWLEDGE_FILES.sources, () => '', /no rows|header/],
    ['a version that is not one', KNOWLEDGE_FILES.version, () => 'latest\n', /medicine-checks\.version/],
    [
      'a statement without its Oshiwambo',
      KNOWLEDGE_FILES.allergyClasses,
      (s: string) => s.replace(/\tOmaalergi komuti gumwe gwe penicillin[^\t]*\t/, '\t\t'),
      /allergy-classes\.tsv: line 2: statement \(ng\)/,
    ],
    [
      'a text with the wrong placeholder',
      KNOWLEDGE_FILES.texts,
      (s: string) => s.replace('Allergie: {substance}', 'Allergie: {medicine}'),
      /medicine-check-texts\.tsv: line \d+: af must use the placeholders \{substance\}, \{other\}/,
    ],
    ['a missing text', KNOWLEDGE_FILES.texts, (s: string) => s.replace(/^INTERACTION_MINOR.*\n/m, ''), /missing INTERACTION_MINOR/],
  ])('%s', (_label, file, change, problem) => {
    expect(() => readMedicineKnowledge(damaged(file, change))).toThrow(problem);
  });
});
