// The catalogues shipped in the repository's catalogues/ folder (one TSV per kind, its source, version and licence in
// <name>.SOURCE.md beside it), read from disk and parsed into entries. Nothing is fetched at run time.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  ALLERGY_SUBSTANCE_SYSTEM,
  ATC_SYSTEM,
  CVX_SYSTEM,
  ICD10_SYSTEM,
  LOINC_SYSTEM,
  type CodeEntry,
  type CodeKind,
} from '../../../contracts/codes';

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

function entryOf(kind: CodeKind, row: Row): CodeEntry {
  const base = { code: required(row, 'code'), display: required(row, 'display'), synonyms: synonymsOf(row) };
  switch (kind) {
    case 'diagnoses':
      return { ...base, codeSystem: ICD10_SYSTEM };
    case 'medications':
      return { ...base, codeSystem: ATC_SYSTEM };
    case 'vaccines':
      return { ...base, codeSystem: CVX_SYSTEM, ...(row.atc ? { atc: row.atc } : {}) };
    case 'allergies': {
      const system = required(row, 'system');
      if (system !== 'atc' && system !== 'local') throw new Error(`allergies: unknown system ${system}`);
      const category = required(row, 'category');
      if (category !== 'medication' && category !== 'food' && category !== 'environment' && category !== 'biologic') {
        throw new Error(`allergies: unknown category ${category}`);
      }
      return { ...base, codeSystem: system === 'atc' ? ATC_SYSTEM : ALLERGY_SUBSTANCE_SYSTEM, category };
    }
    case 'lab-results': {
      const valueType = required(row, 'valueType');
      if (valueType !== 'numeric' && valueType !== 'text') throw new Error(`lab-results: unknown value type ${valueType}`);
      return {
        ...base,
        codeSystem: LOINC_SYSTEM,
        shortName: required(row, 'shortName'),
        unit: row.unit ?? '',
        valueType,
        referenceLow: numberOrNull(row.referenceLow),
        referenceHigh: numberOrNull(row.referenceHigh),
      };
    }
  }
}

/** Reads and parses one kind's catalogue file. */
export function readCatalogue(kind: CodeKind): CatalogueEntry[] {
  return entriesOf(kind, parseTsv(readFileSync(catalogueFile(kind), 'utf8')));
}
