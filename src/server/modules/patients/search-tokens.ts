// Turns fuzzy search input into search tokens: normalized words, name particles attached to the next word,
// where each token came from (first-name field, last-name field, or a full name in either order).
import type { FuzzySearchInput } from '../../../contracts/patients';
import { lowerLetters, nameWords } from './name-normalize';

/** Name particles (and single letters): searched with the next word ('van Wyk' -> 'wyk' or 'vanwyk', "O'Brien" -> 'brien' or 'obrien'). */
export const NAME_PARTICLES: ReadonlySet<string> = new Set([
  'van',
  'der',
  'den',
  'de',
  'du',
  'le',
  'la',
  'von',
  'zu',
  'ya',
  'da',
  'ter',
  'te',
]);

export const MAX_TOKENS = 6;

export interface SearchToken {
  index: number;
  /** The normalized word searched for. */
  text: string;
  /** Other normalized spellings of the same token, e.g. with its particles: 'vanwyk' for 'wyk'. */
  variants: string[];
  /** The token as typed (lower case, accents kept), to tell an accent difference from an exact match. */
  typed: string;
  /** Which field it came from; 'either' for the full-name field. */
  side: 'first' | 'last' | 'either';
  /** Position in the full name, 0-based (first-name words come first when the fields are separate). */
  position: number;
  /** The search words this token stands for: itself, or two neighbours typed as one name ('Maria Renée'). */
  covers: number[];
}

interface Word {
  norm: string;
  typed: string;
}

function wordsOf(value: string): Word[] {
  // Typed words keep their accents; the normalized ones line up with them one to one.
  const typed = value
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const out: Word[] = [];
  for (const t of typed) for (const norm of nameWords(t)) out.push({ norm, typed: lowerLetters(t) });
  return out;
}

function tokensOf(value: string, side: SearchToken['side'], into: SearchToken[]): void {
  let particles: Word[] = [];
  for (const word of wordsOf(value)) {
    if (NAME_PARTICLES.has(word.norm) || word.norm.length === 1) {
      particles.push(word);
      continue;
    }
    if (into.length >= MAX_TOKENS) return;
    const prefix = particles.map((p) => p.norm).join('');
    into.push({
      index: into.length,
      text: word.norm,
      variants: prefix ? [prefix + word.norm] : [],
      typed: particles.map((p) => p.typed).join('') + word.typed,
      side,
      position: into.length,
      covers: [into.length],
    });
    particles = [];
  }
  // Particles alone ('van') are searched as themselves.
  if (particles.length > 0 && into.length < MAX_TOKENS) {
    const norm = particles.map((p) => p.norm).join('');
    into.push({
      index: into.length,
      text: norm,
      variants: [],
      typed: particles.map((p) => p.typed).join(''),
      side,
      position: into.length,
      covers: [into.length],
    });
  }
}

/** The name tokens of a fuzzy search; empty when only an address was given. */
export function searchTokens(input: Pick<FuzzySearchInput, 'fullName' | 'firstName' | 'smartLastName'>): SearchToken[] {
  const tokens: SearchToken[] = [];
  if (input.firstName || input.smartLastName) {
    if (input.firstName) tokensOf(input.firstName, 'first', tokens);
    if (input.smartLastName) tokensOf(input.smartLastName, 'last', tokens);
  } else if (input.fullName) {
    tokensOf(input.fullName, 'either', tokens);
  }
  // Repeated words add nothing ('Maria Maria').
  const seen = new Set<string>();
  return tokens
    .filter((t) => (seen.has(t.text) ? false : (seen.add(t.text), true)))
    .map((t, i) => ({ ...t, index: i, position: i, covers: [i] }));
}

/**
 * Neighbouring search words joined, as extra tokens: a double first name ('Maria Renée' is stored 'mariarenee')
 * or a name split by a typo. Their indexes follow the words' own.
 */
export function joinedTokens(tokens: readonly SearchToken[]): SearchToken[] {
  const full = (t: SearchToken) => t.variants[0] ?? t.text;
  const out: SearchToken[] = [];
  for (let i = 0; i + 1 < tokens.length; i++) {
    const [a, b] = [tokens[i]!, tokens[i + 1]!];
    const text = full(a) + full(b);
    const plain = a.text + b.text;
    out.push({
      index: tokens.length + i,
      text,
      variants: plain === text ? [] : [plain],
      typed: a.typed + b.typed,
      side: a.side === b.side ? a.side : 'either',
      position: a.position,
      covers: [a.index, b.index],
    });
  }
  return out;
}

/**
 * The deletion neighbourhood of a search word, mirroring nhr_word_deletes() on the stored words: the word itself and
 * the strings with one letter deleted (3+ letters), and separately those with two letters deleted (5+ letters).
 */
export function wordDeletes(word: string): { one: string[]; two: string[] } {
  const one = new Set<string>([word]);
  const two = new Set<string>();
  const n = word.length;
  if (n >= 3) {
    for (let i = 0; i < n; i++) {
      const d = word.slice(0, i) + word.slice(i + 1);
      one.add(d);
      if (n >= 5) for (let j = i; j < n - 1; j++) two.add(d.slice(0, j) + d.slice(j + 1));
    }
  }
  for (const d of one) two.delete(d);
  return { one: [...one], two: [...two] };
}

/** How many typos a search word of this length may carry. */
export function maxTypos(word: string): number {
  return word.length >= 5 ? 2 : word.length >= 3 ? 1 : 0;
}
