// The medicine-check knowledge shipped in the repository's catalogues/ folder (issue 25 items 4-5; decision 043):
// the interaction pairs, the allergy classes, their sources and the knowledge version. Read and checked whole at
// start; any problem throws a KnowledgeFileError naming the file and line, so a broken file is never half-used.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  MEDICINE_CHECK_TIERS,
  MEDICINE_WARNING_CODES,
  STATEMENT_LANGUAGES,
  type MedicineCheckTier,
  type StatementLanguage,
} from '../../../contracts/medicine-checks';
import { parseTsv } from '../codes/catalogue-files';

export const KNOWLEDGE_FILES = {
  version: 'medicine-checks.version',
  sources: 'medicine-check-sources.tsv',
  interactions: 'medicine-interactions.tsv',
  allergyClasses: 'allergy-classes.tsv',
  texts: 'medicine-check-texts.tsv',
} as const;

/** A text in every statement language. */
export type Statements = Record<StatementLanguage, string>;

/**
 * The keys medicine-check-texts.tsv must hold and the placeholders each must use in every language: the ATC-hierarchy
 * statement, and the summaries of CDS Hooks cards (the same words as the client's `warnings.<code>`).
 */
export const TEXT_KEYS: Readonly<Record<string, readonly string[]>> = {
  'atc-hierarchy': ['allergy'],
  /** A CDS Hooks draft order whose medicine has no ATC code: it cannot be checked, and the card says so. */
  NOT_CHECKED_UNCODED: ['substance'],
  ...Object.fromEntries(
    Object.values(MEDICINE_WARNING_CODES).map((code) => [code, code === MEDICINE_WARNING_CODES.unavailable ? [] : ['substance', 'other']]),
  ),
};

/** Where a statement comes from (medicine-check-sources.tsv). */
export interface KnowledgeSource {
  key: string;
  title: string;
  version: string;
  licence: string;
  url: string;
}

/** A rule between two sets of ATC prefixes: a medicine matches a side when its code starts with one of its prefixes. */
export interface KnowledgeRule {
  id: string;
  a: string[];
  b: string[];
  tier: MedicineCheckTier;
  /** The clinical statement in English, Afrikaans and Oshiwambo (columns statement, statement_af, statement_ng). */
  statements: Statements;
  source: string;
}

export interface MedicineKnowledge {
  /** The declared version and a digest of the files, e.g. `2026-11-26.1+3f2a9c1b`: every alert names it. */
  version: string;
  sources: ReadonlyMap<string, KnowledgeSource>;
  interactions: readonly KnowledgeRule[];
  /** `a`: the allergy's code; `b`: the medicine's. Tiers contraindicated or serious. */
  allergyClasses: readonly KnowledgeRule[];
  /** medicine-check-texts.tsv: each TEXT_KEYS key in every language, with `{name}` placeholders. */
  texts: ReadonlyMap<string, Statements>;
}

export class KnowledgeFileError extends Error {}

/** An ATC code at any level: A, A01, A01A, A01AB, A01AB01. */
const ATC_PREFIX = /^[A-Z](\d\d([A-Z]([A-Z](\d\d)?)?)?)?$/;
const RULE_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const VERSION = /^\d{4}-\d{2}-\d{2}\.\d+$/;
const MAX_STATEMENT = 500;

function readText(dir: string, name: string): string {
  try {
    return readFileSync(path.join(dir, name), 'utf8');
  } catch {
    throw new KnowledgeFileError(`${name}: missing or unreadable`);
  }
}

function rowsOf(name: string, text: string, columns: readonly string[]): Record<string, string>[] {
  let rows: Record<string, string>[];
  try {
    rows = parseTsv(text);
  } catch (err) {
    throw new KnowledgeFileError(`${name}: ${(err as Error).message}`);
  }
  const header = (text.split(/\r?\n/)[0] ?? '').split('\t');
  if (columns.some((c) => !header.includes(c))) throw new KnowledgeFileError(`${name}: the header must name ${columns.join(', ')}`);
  if (rows.length === 0) throw new KnowledgeFileError(`${name}: no rows`);
  return rows;
}

function sourcesOf(text: string): Map<string, KnowledgeSource> {
  const name = KNOWLEDGE_FILES.sources;
  const sources = new Map<string, KnowledgeSource>();
  rowsOf(name, text, ['key', 'title', 'version', 'licence', 'url']).forEach((row, i) => {
    const at = `${name}: line ${i + 2}`;
    const source: KnowledgeSource = {
      key: row.key ?? '',
      title: row.title ?? '',
      version: row.version ?? '',
      licence: row.licence ?? '',
      url: row.url ?? '',
    };
    if (!RULE_ID.test(source.key) || sources.has(source.key)) throw new KnowledgeFileError(`${at}: key missing, malformed or repeated`);
    if (!source.title || !source.version || !source.licence || !source.url.startsWith('https://'))
      throw new KnowledgeFileError(`${at}: title, version, licence and an https url are needed`);
    sources.set(source.key, source);
  });
  return sources;
}

function prefixesOf(at: string, cell: string | undefined): string[] {
  const prefixes = (cell ?? '').split('|').map((p) => p.trim());
  if (!cell || prefixes.some((p) => !ATC_PREFIX.test(p))) throw new KnowledgeFileError(`${at}: "${cell ?? ''}" is not a list of ATC codes`);
  return prefixes;
}

/** The statement columns of a rule: statement (English), statement_af, statement_ng. */
const STATEMENT_COLUMNS = STATEMENT_LANGUAGES.map((l) => (l === 'en' ? 'statement' : `statement_${l}`));

function statementsOf(at: string, row: Record<string, string>): Statements {
  const statements = Object.fromEntries(
    STATEMENT_LANGUAGES.map((l, i) => {
      const text = row[STATEMENT_COLUMNS[i] ?? ''] ?? '';
      if (text.length < 10 || text.length > MAX_STATEMENT) throw new KnowledgeFileError(`${at}: statement (${l}) missing or too long`);
      return [l, text];
    }),
  );
  return statements as Statements;
}

const placeholders = (text: string): string[] => [...text.matchAll(/\{([a-z]+)\}/g)].map((m) => m[1] ?? '').sort();

/** medicine-check-texts.tsv: every key of TEXT_KEYS, in every language, with exactly its placeholders. */
function textsOf(text: string): Map<string, Statements> {
  const name = KNOWLEDGE_FILES.texts;
  const texts = new Map<string, Statements>();
  rowsOf(name, text, ['key', ...STATEMENT_LANGUAGES]).forEach((row, i) => {
    const at = `${name}: line ${i + 2}`;
    const key = row.key ?? '';
    const expected = TEXT_KEYS[key];
    if (!expected || texts.has(key)) throw new KnowledgeFileError(`${at}: key "${key}" unknown or repeated`);
    for (const l of STATEMENT_LANGUAGES) {
      const value = row[l] ?? '';
      if (!value || value.length > MAX_STATEMENT) throw new KnowledgeFileError(`${at}: ${l} missing or too long`);
      if (placeholders(value).join() !== [...expected].sort().join())
        throw new KnowledgeFileError(`${at}: ${l} must use the placeholders ${expected.map((p) => `{${p}}`).join(', ') || 'none'}`);
    }
    texts.set(key, { en: row.en ?? '', af: row.af ?? '', ng: row.ng ?? '' });
  });
  const missing = Object.keys(TEXT_KEYS).filter((k) => !texts.has(k));
  if (missing.length) throw new KnowledgeFileError(`${name}: missing ${missing.join(', ')}`);
  return texts;
}

function rulesOf(name: string, text: string, sources: ReadonlyMap<string, KnowledgeSource>, tiers: readonly string[]): KnowledgeRule[] {
  const [first, second]: [string, string] = name === KNOWLEDGE_FILES.allergyClasses ? ['allergy', 'medicine'] : ['a', 'b'];
  const ids = new Set<string>();
  return rowsOf(name, text, ['id', first, second, 'tier', ...STATEMENT_COLUMNS, 'source']).map((row, i) => {
    const at = `${name}: line ${i + 2}`;
    const id = row.id ?? '';
    if (!RULE_ID.test(id) || ids.has(id)) throw new KnowledgeFileError(`${at}: id missing, malformed or repeated`);
    ids.add(id);
    const tier = row.tier ?? '';
    if (!tiers.includes(tier)) throw new KnowledgeFileError(`${at}: tier "${tier}" is not one of ${tiers.join(', ')}`);
    const statements = statementsOf(at, row);
    const source = row.source ?? '';
    if (!sources.has(source)) throw new KnowledgeFileError(`${at}: source "${source}" is not in ${KNOWLEDGE_FILES.sources}`);
    return { id, a: prefixesOf(at, row[first]), b: prefixesOf(at, row[second]), tier: tier as MedicineCheckTier, statements, source };
  });
}

/** Reads and checks every knowledge file of `dir`; throws KnowledgeFileError on the first problem. */
export function readMedicineKnowledge(dir: string): MedicineKnowledge {
  const texts = Object.fromEntries(Object.entries(KNOWLEDGE_FILES).map(([k, name]) => [k, readText(dir, name)])) as Record<
    keyof typeof KNOWLEDGE_FILES,
    string
  >;
  const declared = texts.version.trim();
  if (!VERSION.test(declared)) throw new KnowledgeFileError(`${KNOWLEDGE_FILES.version}: "${declared.slice(0, 40)}" is not YYYY-MM-DD.N`);
  const sources = sourcesOf(texts.sources);
  const interactions = rulesOf(KNOWLEDGE_FILES.interactions, texts.interactions, sources, MEDICINE_CHECK_TIERS);
  const allergyClasses = rulesOf(KNOWLEDGE_FILES.allergyClasses, texts.allergyClasses, sources, ['contraindicated', 'serious']);
  const phrases = textsOf(texts.texts);
  const digest = createHash('sha256');
  for (const key of Object.keys(KNOWLEDGE_FILES) as (keyof typeof KNOWLEDGE_FILES)[]) digest.update(texts[key]).update('\0');
  return { version: `${declared}+${digest.digest('hex').slice(0, 8)}`, sources, interactions, allergyClasses, texts: phrases };
}
