// Regenerates catalogues/diagnoses.tsv (see diagnoses.SOURCE.md):
//
//   node --import tsx catalogues/tools/build-diagnoses.ts path/to/categories.csv
//
// The input is `categories.csv` of the public repository k4m1113/ICD-10-CSV (commit 013f0796d6bc…): the CMS FY2018
// ICD-10-CM order file's header rows and first codes, "CODE,\"Title\"" per line, code without its dot. Kept: the codes
// of WHO ICD-10's form (a 3-character category or a 4-character subcategory with a digit after the dot); dropped: every
// longer code and the CM-only categories with a letter in place of a digit (C4A, M1A, Z3A, …). Then the hand-checked
// rows of diagnoses-supplement.tsv beside this file are added (a supplement row never replaces a source row), and the
// codes listed in diagnoses-common.txt are marked `common` (the type-ahead lists them first).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const WHO_FORM = /^[A-Z]\d\d\d?$/;
const here = (name: string): string => fileURLToPath(new URL(name, import.meta.url));

function withDot(code: string): string {
  return code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code;
}

function parseCategories(text: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^"?([A-Z0-9]+)"?,"(.*)"$/.exec(line.trim());
    if (!match || !WHO_FORM.test(match[1]!)) continue;
    rows.set(withDot(match[1]!), match[2]!.replace(/""/g, '"').replace(/\s+/g, ' ').trim());
  }
  return rows;
}

function parseSupplement(text: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (!line || line.startsWith('#') || line.startsWith('code\t')) continue;
    const [code, title] = line.split('\t');
    if (!code || !title || !/^[A-Z]\d\d(\.\d)?$/.test(code)) throw new Error(`bad supplement row: ${line}`);
    rows.set(code, title);
  }
  return rows;
}

const input = process.argv[2];
if (!input) {
  console.error('usage: build-diagnoses.ts path/to/categories.csv');
  process.exit(2);
}
const rows = parseCategories(readFileSync(input, 'utf8'));
const fromSource = rows.size;
for (const [code, title] of parseSupplement(readFileSync(here('./diagnoses-supplement.tsv'), 'utf8'))) {
  if (!rows.has(code)) rows.set(code, title);
}
const common = new Set(
  readFileSync(here('./diagnoses-common.txt'), 'utf8')
    .split(/\r?\n/)
    .filter((line) => line && !line.startsWith('#')),
);
const missing = [...common].filter((code) => !rows.has(code));
if (missing.length > 0) throw new Error(`diagnoses-common.txt names codes the catalogue lacks: ${missing.join(' ')}`);
const codes = [...rows.keys()].sort();
const out =
  ['code\tdisplay\tcommon', ...codes.map((code) => `${code}\t${rows.get(code)}\t${common.has(code) ? '1' : ''}`)].join('\n') + '\n';
writeFileSync(here('../diagnoses.tsv'), out);
console.log(`diagnoses.tsv: ${codes.length} codes (${fromSource} from the source, ${codes.length - fromSource} from the supplement)`);
