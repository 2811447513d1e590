// The medicine-check knowledge shipped in the repository's catalogues/ folder (issue 25 items 4-5; decision 043):
// the interaction pairs, the allergy classes, their sources and the knowledge version. Read and checked whole at
// start; any problem throws a KnowledgeFileError naming the file and line, so a broken file is never half-used.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MEDICINE_CHECK_TIERS, type MedicineCheckTier } from '../../../contracts/medicine-checks';
import { parseTsv } from '../codes/catalogue-files';

export const KNOWLEDGE_FILES = {
  version: 'medicine-checks.version',
  sources: 'medicine-check-sources.tsv',
  interactions: 'medicine-interactions.tsv',
  allergyClasses: 'allergy-classes.tsv',
} as const;

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
  statement: string;
  source: string;
}

export interface MedicineKnowledge {
  /** The declared version and a digest of the files, e.g. `2026-11-26.1+3f2a9c1b`: every alert names it. */
  version: string;
  sources: ReadonlyMap<string, KnowledgeSource>;
  interactions: readonly KnowledgeRule[];
  /** `a`: the allergy's code; `b`: the medicine's. Tiers contraindicated or serious. */
  allergyClasses: readonly KnowledgeRule[];
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

function rulesOf(name: string, text: string, sources: ReadonlyMap<string, KnowledgeSource>, tiers: readonly string[]): KnowledgeRule[] {
  const [first, second]: [string, string] = name === KNOWLEDGE_FILES.allergyClasses ? ['allergy', 'medicine'] : ['a', 'b'];
  const ids = new Set<string>();
  return rowsOf(name, text, ['id', first, second, 'tier', 'statement', 'source']).map((row, i) => {
    const at = `${name}: line ${i + 2}`;
    const id = row.id ?? '';
    if (!RULE_ID.test(id) || ids.has(id)) throw new KnowledgeFileError(`${at}: id missing, malformed or repeated`);
    ids.add(id);
    const tier = row.tier ?? '';
    if (!tiers.includes(tier)) throw new KnowledgeFileError(`${at}: tier "${tier}" is not one of ${tiers.join(', ')}`);
    const statement = row.statement ?? '';
    if (statement.length < 10 || statement.length > MAX_STATEMENT) throw new KnowledgeFileError(`${at}: statement missing or too long`);
    const source = row.source ?? '';
    if (!sources.has(source)) throw new KnowledgeFileError(`${at}: source "${source}" is not in ${KNOWLEDGE_FILES.sources}`);
    return { id, a: prefixesOf(at, row[first]), b: prefixesOf(at, row[second]), tier: tier as MedicineCheckTier, statement, source };
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
  const digest = createHash('sha256');
  for (const key of Object.keys(KNOWLEDGE_FILES) as (keyof typeof KNOWLEDGE_FILES)[]) digest.update(texts[key]).update('\0');
  return { version: `${declared}+${digest.digest('hex').slice(0, 8)}`, sources, interactions, allergyClasses };
}
