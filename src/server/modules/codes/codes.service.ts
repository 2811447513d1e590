// Code look-up for the type-ahead and for coded inputs (issue 22 item 3). Each catalogue is read once, on first use,
// into its CodeIndex; the catalogues are reference data (no patient data), so look-ups are neither scoped nor audited.
import {
  CODE_KINDS,
  KIND_SYSTEMS,
  type CodeCheckFailure,
  type CodeEntry,
  type CodeKind,
  type CodesAnswer,
  type CodesQuery,
} from '../../../contracts/codes';
import { readCatalogue } from './catalogue-files';
import { CodeIndex } from './code-index';

const indexes = new Map<CodeKind, CodeIndex>();

/** The index of one kind, built from its file the first time it is asked for. */
export function codeIndex(kind: CodeKind): CodeIndex {
  let index = indexes.get(kind);
  if (!index) {
    index = new CodeIndex(readCatalogue(kind));
    indexes.set(kind, index);
  }
  return index;
}

/** Builds every index now (a server may call it at start so the first look-up of each kind is as fast as the rest). */
export function loadAllCatalogues(): void {
  for (const kind of CODE_KINDS) codeIndex(kind);
}

/** The catalogue entry of exactly this system and code for the kind, or null (a code of another kind's system is null). */
export function lookupCode(kind: CodeKind, codeSystem: string, code: string): CodeEntry | null {
  if (!KIND_SYSTEMS[kind].includes(codeSystem)) return null;
  return codeIndex(kind).lookup(codeSystem, code);
}

export type CodeCheck = { ok: true; entry: CodeEntry } | { ok: false; reason: CodeCheckFailure };

/**
 * Whether a coded input may be stored for the kind, and why not: 'unknown-system' when its system is not one of the
 * kind's (KIND_SYSTEMS), 'unknown-code' when the catalogue has no such code. Map a refusal to a 400 with
 * CODE_CHECK_MESSAGES[reason] as the field message.
 */
export function checkCode(kind: CodeKind, coded: { code: string; codeSystem: string }): CodeCheck {
  if (!KIND_SYSTEMS[kind].includes(coded.codeSystem)) return { ok: false, reason: 'unknown-system' };
  const entry = codeIndex(kind).lookup(coded.codeSystem, coded.code);
  return entry ? { ok: true, entry } : { ok: false, reason: 'unknown-code' };
}

/** GET /api/codes: the best matches of the query, best first. */
export function searchCodes({ kind, q, limit }: CodesQuery): CodesAnswer {
  return { kind, query: q, results: codeIndex(kind).search(q, limit) };
}
