// The catalogue files themselves (issue 22 item 3): each parses, its codes are unique per system and of the right
// form (LOINC with its check digit), ranges are sane, and each has its SOURCE.md (source, version, licence) beside it.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALLERGY_SUBSTANCE_SYSTEM, ATC_SYSTEM, CODE_KINDS, KIND_SYSTEMS, type CodeKind } from '../../../contracts/codes';
import { isSafeText } from '../../../contracts/safe-text';
import { CATALOGUE_DIR, readCatalogue } from './catalogue-files';

const entriesIn = (kind: CodeKind) => readCatalogue(kind).map((row) => row.entry);

/** LOINC's mod-10 check digit of the digits before the dash (the Luhn scheme, from the right). */
function loincCheckDigit(digits: string): number {
  let sum = 0;
  [...digits].reverse().forEach((ch, i) => {
    let d = Number(ch);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  });
  return (10 - (sum % 10)) % 10;
}

const CODE_FORMS: Record<CodeKind, Record<string, RegExp>> = {
  diagnoses: { 'http://hl7.org/fhir/sid/icd-10': /^[A-Z]\d\d(\.\d)?$/ },
  medications: { [ATC_SYSTEM]: /^[A-Z]\d\d[A-Z][A-Z]\d\d$/ },
  vaccines: { 'http://hl7.org/fhir/sid/cvx': /^\d{1,3}$/ },
  // Classes at any ATC level (J01C, M01A, J01FA) and single drugs (level 5); our own codes are kebab-case words.
  allergies: { [ATC_SYSTEM]: /^[A-Z](\d\d([A-Z]([A-Z](\d\d)?)?)?)?$/, [ALLERGY_SUBSTANCE_SYSTEM]: /^[a-z]+(-[a-z]+)+$/ },
  'lab-results': { 'http://loinc.org': /^\d{1,7}-\d$/ },
};

const MINIMUM_SIZE: Record<CodeKind, number> = { diagnoses: 3000, medications: 200, vaccines: 20, allergies: 50, 'lab-results': 60 };

describe.each(CODE_KINDS)('catalogues/%s.tsv', (kind) => {
  const entries = entriesIn(kind);

  it('parses, with enough entries', () => expect(entries.length).toBeGreaterThanOrEqual(MINIMUM_SIZE[kind]));

  it("uses only the kind's code systems, each code once per system", () => {
    const seen = new Set<string>();
    for (const e of entries) {
      expect(KIND_SYSTEMS[kind]).toContain(e.codeSystem);
      const key = `${e.codeSystem}|${e.code}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });

  it('has codes of the right form', () => {
    const bad = entries.filter((e) => !CODE_FORMS[kind][e.codeSystem]?.test(e.code)).map((e) => e.code);
    expect(bad).toEqual([]);
  });

  it('has a display for every entry, safe text without stray spaces', () => {
    for (const e of entries) {
      for (const text of [e.display, ...e.synonyms]) {
        expect(text.length, e.code).toBeGreaterThan(0);
        expect(text, e.code).toBe(text.trim());
        expect(isSafeText(text), e.code).toBe(true);
      }
    }
  });

  it('has its SOURCE.md beside it, with source, version and licence', () => {
    const file = `${CATALOGUE_DIR}${kind}.SOURCE.md`;
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, 'utf8');
    for (const heading of ['## Source', '## Version', '## Licence', '## How it was produced', '## Left out'])
      expect(text).toContain(heading);
  });
});

describe('lab-results', () => {
  const entries = entriesIn('lab-results');

  it('computes LOINC check digits (known codes)', () => {
    expect(loincCheckDigit('4548')).toBe(4);
    expect(loincCheckDigit('718')).toBe(7);
    expect(loincCheckDigit('2345')).toBe(7);
  });

  it('every code carries its right check digit', () => {
    const bad = entries.filter((e) => {
      const [digits, check] = e.code.split('-') as [string, string];
      return loincCheckDigit(digits) !== Number(check);
    });
    expect(bad.map((e) => e.code)).toEqual([]);
  });

  it('numeric tests have a finite range with low below high; text results have no range', () => {
    for (const e of entries) {
      if (e.valueType === 'text') {
        expect([e.referenceLow, e.referenceHigh], e.code).toEqual([null, null]);
        continue;
      }
      for (const bound of [e.referenceLow, e.referenceHigh]) if (bound !== null) expect(Number.isFinite(bound), e.code).toBe(true);
      if (e.referenceLow != null && e.referenceHigh != null) expect(e.referenceLow, e.code).toBeLessThan(e.referenceHigh);
    }
  });
});

describe('vaccines', () => {
  it('every WHO ATC code is a vaccine (J07)', () => {
    for (const e of entriesIn('vaccines')) if (e.atc) expect(e.atc).toMatch(/^J07[A-Z]{2}(\d\d)?$/);
  });

  it('carries the Namibian schedule under the names clinics use', () => {
    const names = new Set(entriesIn('vaccines').flatMap((e) => e.synonyms.map((s) => s.toLowerCase())));
    for (const name of ['bcg', 'bopv', 'ipv', 'penta', 'pcv', 'rota', 'mr', 'mr1', 'mr2', 'hpv', 'td', 'tt', 'hepb-bd', 'covid-19', 'yf']) {
      expect(names.has(name), name).toBe(true);
    }
  });
});

describe('diagnoses', () => {
  it('marks the commonest as common, among them type 2 diabetes, hypertension and HIV', () => {
    const common = readCatalogue('diagnoses')
      .filter((row) => row.common)
      .map((row) => row.entry.code);
    expect(common.length).toBeGreaterThan(50);
    expect(common).toEqual(expect.arrayContaining(['E11', 'I10', 'B20', 'J18.9', 'A15.0', 'B54']));
  });

  it('has the categories and subcategories a clinic uses most', () => {
    const codes = new Set(entriesIn('diagnoses').map((e) => e.code));
    for (const code of ['A09', 'A15.0', 'B20', 'B50.9', 'E11', 'E11.9', 'I10', 'J18.9', 'N39.0', 'O80', 'U07.1', 'Z00.0']) {
      expect(codes.has(code), code).toBe(true);
    }
  });
});
