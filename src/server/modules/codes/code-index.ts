// An in-memory index of one catalogue for the type-ahead: a query matches an entry when its text is a prefix of the
// entry's code (dots and dashes ignored) or every word of it begins a word of the entry's display, short name or
// synonyms; case and accents do not matter. Sorted arrays of codes and words are searched by binary search, so a
// 3-letter prefix costs a few comparisons plus the matches, whatever the catalogue's size.
//
// Order: an exact code or name first; then the catalogue's common entries (its `common` column: what a clinic records
// most, so "diab" offers type 2 diabetes before diabetes due to an underlying condition), shorter codes first; then
// the display starting with the query, a code starting with it, a synonym starting with it, and word starts; within
// each, shorter codes (a category before its subcategories), then shorter names.
import type { CodeEntry } from '../../../contracts/codes';
import type { CatalogueEntry } from './catalogue-files';

/** Lower case without accents: "Névirapine" → "nevirapine". */
export const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
/** A code as compared: folded, letters and digits only ("E11.9" → "e119", "4548-4" → "45484"). */
export const foldCode = (code: string): string => fold(code).replace(/[^a-z0-9]/g, '');
/** The words of a text, folded. */
export const wordsOf = (text: string): string[] =>
  fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

interface Indexed {
  entry: CodeEntry;
  common: boolean;
  code: string;
  display: string;
  /** Display, short name and synonyms, folded and with their words joined by single spaces. */
  names: string[];
  words: string[];
}

/** Match tiers, best first. */
const EXACT = 0;
const DISPLAY_START = 1;
const CODE_PREFIX = 2;
const NAME_START = 3;
const WORD_START = 4;

/** The range of `sorted` (by key) whose keys start with `prefix`. */
function prefixRange<T>(sorted: readonly T[], key: (item: T) => string, prefix: string): [number, number] {
  const lowerBound = (value: string): number => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (key(sorted[mid]!) < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return [lowerBound(prefix), lowerBound(`${prefix}\uffff`)];
}

export class CodeIndex {
  private readonly items: Indexed[];
  private readonly byCode: { code: string; id: number }[];
  private readonly byWord: { word: string; id: number }[];
  private readonly exact = new Map<string, CodeEntry>();

  constructor(entries: readonly CatalogueEntry[]) {
    this.items = entries.map(({ entry, common }) => {
      const names = [entry.display, ...(entry.shortName ? [entry.shortName] : []), ...entry.synonyms].map((n) => wordsOf(n).join(' '));
      return {
        entry,
        common,
        code: foldCode(entry.code),
        display: names[0] ?? '',
        names,
        words: [...new Set(names.flatMap((n) => n.split(' ')))],
      };
    });
    this.byCode = this.items.map((item, id) => ({ code: item.code, id })).sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
    this.byWord = this.items
      .flatMap((item, id) => item.words.map((word) => ({ word, id })))
      .sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
    for (const { entry } of this.items) this.exact.set(`${entry.codeSystem}|${entry.code}`, entry);
  }

  get size(): number {
    return this.items.length;
  }

  /** The entry of exactly this system and code, or null. */
  lookup(codeSystem: string, code: string): CodeEntry | null {
    return this.exact.get(`${codeSystem}|${code}`) ?? null;
  }

  /** The best `limit` matches of `query`, best first. A query of fewer than 2 characters lists codes from its start. */
  search(query: string, limit: number): CodeEntry[] {
    const code = foldCode(query);
    const words = wordsOf(query);
    if (query.trim().length < 2) return this.byCodePrefix(code, limit);

    const tiers = new Map<number, number>();
    const offer = (id: number, tier: number): void => {
      const known = tiers.get(id);
      if (known === undefined || tier < known) tiers.set(id, tier);
    };
    if (code) {
      const [from, to] = prefixRange(this.byCode, (c) => c.code, code);
      for (let i = from; i < to; i++) {
        const { id } = this.byCode[i]!;
        offer(id, this.items[id]!.code === code ? EXACT : CODE_PREFIX);
      }
    }
    if (words.length > 0) {
      const phrase = words.join(' ');
      // Candidates: the entries with a word starting with the query's longest word; every other word must start one too.
      const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
      const [from, to] = prefixRange(this.byWord, (w) => w.word, longest);
      for (let i = from; i < to; i++) {
        const { id } = this.byWord[i]!;
        const item = this.items[id]!;
        if (!words.every((w) => item.words.some((iw) => iw.startsWith(w)))) continue;
        if (item.names.some((n) => n === phrase)) offer(id, EXACT);
        else if (item.display.startsWith(phrase)) offer(id, DISPLAY_START);
        else if (item.names.some((n) => n.startsWith(phrase))) offer(id, NAME_START);
        else offer(id, WORD_START);
      }
    }
    // Exact matches, then the common entries (among them the shorter code first, however they matched), then the rest by tier.
    const rank = (id: number, tier: number): number => (tier === EXACT ? 0 : this.items[id]!.common ? 1 : 2);
    return [...tiers.entries()]
      .map(([id, tier]) => ({ id, tier, rank: rank(id, tier) }))
      .sort((a, b) => a.rank - b.rank || (a.rank === 1 ? 0 : a.tier - b.tier) || this.compare(this.items[a.id]!, this.items[b.id]!))
      .slice(0, limit)
      .map(({ id }) => this.items[id]!.entry);
  }

  /** Shorter codes (a category before its subcategories), then shorter displays, then code order. */
  private compare(a: Indexed, b: Indexed): number {
    return a.code.length - b.code.length || a.display.length - b.display.length || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
  }

  private byCodePrefix(code: string, limit: number): CodeEntry[] {
    const [from, to] = code ? prefixRange(this.byCode, (c) => c.code, code) : [0, this.byCode.length];
    return this.byCode.slice(from, Math.min(to, from + limit)).map(({ id }) => this.items[id]!.entry);
  }
}
