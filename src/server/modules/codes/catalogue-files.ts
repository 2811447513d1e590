// The catalogues shipped in the repository's catalogues/ folder (one TSV per kind, its source, version and licence in
// <name>.SOURCE.md beside it), read from disk and parsed into entries. Nothing is fetched at run time.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { codeEntry, KIND_SYSTEMS, SYSTEM_SHORT_NAMES, type CodeEntry, type CodeKind } from '../../../contracts/codes';

/** The repository's catalogues/ folder (this file is src/server/modules/codes/, run from source by tsx). */
export const CATALOGUE_DIR = fileURLToPath(new URL('../../../../catalogues/', import.meta.url));

export const catalogueFile = (kind: CodeKind): string => `${CATALOGUE_DIR}${kind}.tsv`;

type Row = Record<string, string>;

/** A TSV with a header line: one object per row, keyed by the header's column names. */
export function parseTsv(text: string): Row[] {
  const lines = text.split(/\r?\n/).filter((line) => line.length > 0);
  const header = (lines.shift() ?? '').split('\t');
  return lines.map((line, i) => {
    const cells = line.split('\t');
    if (cells.length > header.length) throw new Error(`line ${i + 2}: ${cells.length} cells for ${header.length} columns`);
    return Object.fromEntries(header.map((name, c) => [name, (cells[c] ?? '').trim()]));
  });
}

const synonymsOf = (row: Row): string[] =>
  row.synonyms
    ? row.synonyms
        .split('|')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
const numberOrNull = (cell: string | undefined): number | null => (cell ? Number(cell) : null);

function required(row: Row, column: string): string {
  const value = row[column];
  if (!value) throw new Error(`a row without ${column}: ${JSON.stringify(row)}`);
  return value;
}

/** A catalogue row: the entry as the API answers it, and whether the type-ahead lists it before other matches. */
export interface CatalogueEntry {
  entry: CodeEntry;
  /** The `common` column: one of the entries a clinic records most. */
  common: boolean;
}

/** One kind's rows as entries; throws on a malformed file (the catalogue tests read every file). */
export function entriesOf(kind: CodeKind, rows: Row[]): CatalogueEntry[] {
  return rows.map((row) => ({ entry: entryOf(kind, row), common: row.common === '1' }));
}

/** Columns beside code, display, synonyms, system and common that an entry carries when a catalogue has them. */
const TEXT_COLUMNS = ['shortName', 'unit', 'valueType', 'atc', 'category'] as const;
const NUMBER_COLUMNS = ['referenceLow', 'referenceHigh'] as const;

/**
 * One row as an entry: its system from the `system` column's short name (contracts/code-systems.ts) or else the
 * kind's own; the extra columns as they are (numbers as numbers). The entry schema refuses a value outside its list
 * (a category, a value type), so a malformed file fails loudly.
 */
function entryOf(kind: CodeKind, row: Row): CodeEntry {
  const codeSystem = row.system ? SYSTEM_SHORT_NAMES[row.system] : KIND_SYSTEMS[kind][0];
  if (!codeSystem || !KIND_SYSTEMS[kind].includes(codeSystem)) throw new Error(`${kind}: unknown system ${row.system}`);
  const extras: Record<string, unknown> = {};
  for (const column of TEXT_COLUMNS) if (column in row) extras[column] = row[column];
  for (const column of NUMBER_COLUMNS) if (column in row) extras[column] = numberOrNull(row[column]);
  const parsed = codeEntry.safeParse({
    code: required(row, 'code'),
    codeSystem,
    display: required(row, 'display'),
    synonyms: synonymsOf(row),
    ...extras,
  });
  if (!parsed.success)
    throw new Error(`${kind}: ${JSON.stringify(row)}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** Reads and parses one kind's catalogue file. */
export function readCatalogue(kind: CodeKind): CatalogueEntry[] {
  return entriesOf(kind, parseTsv(readFileSync(catalogueFile(kind), 'utf8')));
}
