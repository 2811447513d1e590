// How well a stored name word matches a search word, and how the word matches add up to a patient's score.
import type { MatchReason } from '../../../contracts/patients';
import type { SearchToken } from './search-tokens';
import { maxTypos } from './search-tokens';

export type WordVia = 'exact' | 'delete' | 'prefix' | 'phonetic' | 'trigram';
export type MatchKind = 'exact' | 'accents' | 'typo' | 'soundsLike' | 'prefix';

export interface WordMatch {
  word: string;
  /** How well the word matches (0-1): what patients are scored with. */
  score: number;
  /** The score plus a small bonus for common words: which candidate words are kept for the search. */
  rank: number;
  kind: MatchKind;
}

/** Optimal string alignment distance (Levenshtein plus adjacent swaps), or max + 1 once it exceeds max. */
export function osaDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

export const SCORES = {
  exact: 1,
  typo1: 0.86,
  typo2: 0.74,
  /** One typo in a word of 3-4 letters: as likely another name as a typo. */
  shortTypo: 0.6,
  soundsLike: 0.7,
  /** Tie-breakers inside a kind of match: how common the word is, how many trigrams it shares. */
  commonness: 0.03,
  closeness: 0.02,
  /** A prefix scores between these, more when it covers more of the word. */
  prefixBase: 0.55,
  prefixSpan: 0.3,
  /** Applied when a token matched one word of a longer name ('Maria' in 'Maria Ndapewa'). */
  partOfName: 0.95,
  namesSwapped: 0.97,
} as const;

export interface WordFacts {
  via: Set<WordVia>;
  /** Patients with this word in a name. */
  patients: number;
}

/** Scores one candidate word for one token (typos against the word and its particle variants); null when too far. */
export function scoreWord(token: SearchToken, word: string, facts: WordFacts): WordMatch | null {
  const q = token.text;
  if (word === q || token.variants.includes(word)) {
    return { word, score: SCORES.exact, rank: SCORES.exact + 1, kind: token.typed === word || token.typed === q ? 'exact' : 'accents' };
  }
  const allowed = maxTypos(q);
  const distance = Math.min(...[q, ...token.variants].map((v) => osaDistance(v, word, Math.max(allowed, 3))));
  let best: { score: number; kind: MatchKind } | null = null;
  const consider = (score: number, kind: MatchKind): void => {
    if (!best || score > best.score) best = { score, kind };
  };
  if (distance <= allowed) consider(q.length < 5 ? SCORES.shortTypo : distance === 1 ? SCORES.typo1 : SCORES.typo2, 'typo');
  if (facts.via.has('phonetic')) consider(SCORES.soundsLike - 0.03 * Math.max(0, distance - 1), 'soundsLike');
  if (facts.via.has('trigram')) consider(SCORES.typo2 - 0.02 * Math.max(0, distance - 2), 'typo');
  if (q.length >= 2 && word.startsWith(q)) consider(SCORES.prefixBase + (SCORES.prefixSpan * q.length) / word.length, 'prefix');
  if (!best) return null;
  const { score, kind }: { score: number; kind: MatchKind } = best;
  // Equally close words: the one sharing more trigrams is the likelier typo; the commoner one the likelier name.
  const closeness = score + SCORES.closeness * trigramSimilarity(q, word);
  const commonness = SCORES.commonness * Math.min(1, Math.log10(1 + facts.patients) / 7);
  return { word, score: closeness, rank: closeness + commonness, kind };
}

/** The best few matching words of one token, best first. */
export function rankWords(token: SearchToken, candidates: ReadonlyMap<string, WordFacts>, limit: number): WordMatch[] {
  const out: WordMatch[] = [];
  for (const [word, facts] of candidates) {
    const m = scoreWord(token, word, facts);
    if (m) out.push(m);
  }
  return out.sort((a, b) => b.rank - a.rank || a.word.localeCompare(b.word)).slice(0, limit);
}

/**
 * pg_trgm's trigrams of a word: the word padded with two spaces before and one after, every three letters. Each
 * trigram is one number (its three UTF-16 units side by side, below 2^48 so exact), sorted and without repeats: a
 * registry-wide match compares millions of names and addresses, and sets of strings cost it most of its time in
 * garbage collection.
 */
export type Trigrams = Float64Array;
export function trigrams(s: string): Trigrams {
  const padded = `  ${s} `;
  const n = Math.max(0, padded.length - 2);
  const codes = new Float64Array(n);
  for (let i = 0; i < n; i++) codes[i] = padded.charCodeAt(i) * 2 ** 32 + padded.charCodeAt(i + 1) * 2 ** 16 + padded.charCodeAt(i + 2);
  codes.sort();
  let kept = 0;
  for (let i = 0; i < n; i++) if (kept === 0 || codes[i] !== codes[kept - 1]) codes[kept++] = codes[i]!;
  return codes.slice(0, kept);
}

/** How many trigrams two sorted lists have in common. */
function sharedTrigrams(ga: Trigrams, gb: Trigrams): number {
  let shared = 0;
  for (let i = 0, j = 0; i < ga.length && j < gb.length;) {
    if (ga[i] === gb[j]) {
      shared++;
      i++;
      j++;
    } else if (ga[i]! < gb[j]!) i++;
    else j++;
  }
  return shared;
}

/** Shared trigrams over all trigrams of the two (pg_trgm's similarity() of the words they came from). */
export function trigramSetSimilarity(ga: Trigrams, gb: Trigrams): number {
  const shared = sharedTrigrams(ga, gb);
  return shared / (ga.length + gb.length - shared);
}

/**
 * Whether trigramSetSimilarity(ga, gb) >= min, answered without counting when the sizes alone rule it out (the
 * similarity is at most the shorter list's length over the longer's).
 */
export function trigramSetSimilarAtLeast(ga: Trigrams, gb: Trigrams, min: number): boolean {
  const longer = Math.max(ga.length, gb.length);
  if (longer === 0 || Math.min(ga.length, gb.length) < min * longer) return false;
  return trigramSetSimilarity(ga, gb) >= min;
}

/** pg_trgm's similarity(): shared trigrams of the padded words over all their trigrams. */
export function trigramSimilarity(a: string, b: string): number {
  return trigramSetSimilarity(trigrams(a), trigrams(b));
}

const SIDE_REASON: Record<'first' | 'last', Partial<Record<MatchKind, MatchReason>>> = {
  first: { soundsLike: 'search:reason.firstNameSoundsLike' },
  last: { soundsLike: 'search:reason.lastNameSoundsLike' },
};
const KIND_REASON: Record<MatchKind, MatchReason> = {
  exact: 'search:reason.exact',
  accents: 'search:reason.accents',
  typo: 'search:reason.typo',
  soundsLike: 'search:reason.lastNameSoundsLike',
  prefix: 'search:reason.prefix',
};

export function reasonFor(kind: MatchKind, side: 'first' | 'last'): MatchReason {
  return SIDE_REASON[side][kind] ?? KIND_REASON[kind];
}

/** One token matched against one name of a patient. */
export interface TokenHit {
  token: number;
  side: 'first' | 'last';
  score: number;
  kind: MatchKind;
}

export interface PatientMatch {
  patientId: number;
  score: number;
  reasons: MatchReason[];
  dateOfBirth: string | null;
}

/**
 * Adds up the token hits of one patient: the mean of the best score of every token (unmatched tokens count 0),
 * lowered when only part of a multi-word name matched or when the names came in the other order.
 */
export function scorePatient(
  tokens: readonly SearchToken[],
  hits: readonly TokenHit[],
  options: { whole: boolean },
): { score: number; reasons: MatchReason[] } {
  const best = new Map<number, TokenHit>();
  for (const h of hits) {
    const b = best.get(h.token);
    if (!b || h.score > b.score) best.set(h.token, h);
  }
  let total = 0;
  const reasons = new Set<MatchReason>();
  for (const h of best.values()) {
    total += h.score;
    reasons.add(reasonFor(h.kind, h.side));
  }
  let score = tokens.length > 0 ? total / tokens.length : 0;
  if (!options.whole) {
    score *= SCORES.partOfName;
    reasons.add('search:reason.partOfName');
  }
  if (isSwapped(tokens, [...best.values()])) {
    score *= SCORES.namesSwapped;
    reasons.add('search:reason.namesSwapped');
  }
  if (reasons.size > 1) reasons.delete('search:reason.exact');
  return { score: Math.max(0, Math.min(1, score)), reasons: [...reasons] };
}

/** The hits of one matching word pair (or single name) of a patient. */
export interface MatchRow {
  hits: TokenHit[];
  /** The matched words are the whole names, not parts of longer ones. */
  whole: boolean;
}

/**
 * The best reading of a patient's matches: each row scored with its own words, tokens it does not cover taking
 * their best hit from the other rows (three or more search words span several pairs).
 */
export function scoreCandidate(
  tokens: readonly SearchToken[],
  rows: readonly MatchRow[],
): { score: number; reasons: MatchReason[]; hits: TokenHit[] } {
  // A joined token's hit counts for each word it joins.
  const expand = (hits: readonly TokenHit[]) =>
    hits.flatMap((h) => (tokens[h.token]?.covers ?? [h.token]).map((token) => ({ ...h, token })));
  rows = rows.map((r) => ({ ...r, hits: expand(r.hits) }));
  const words = tokens.filter((t) => t.covers.length === 1);
  const best = new Map<number, TokenHit>();
  for (const row of rows) for (const h of row.hits) if (!best.has(h.token) || h.score > best.get(h.token)!.score) best.set(h.token, h);
  let winner = { score: -1, reasons: [] as MatchReason[], hits: [] as TokenHit[] };
  for (const row of rows) {
    const covered = new Set(row.hits.map((h) => h.token));
    const hits = [...row.hits, ...[...best.values()].filter((h) => !covered.has(h.token))];
    const scored = scorePatient(words, hits, { whole: row.whole });
    if (scored.score > winner.score) winner = { ...scored, hits };
  }
  return winner;
}

/** Names in the other order: a first-name field matched a last name, or in a full name the last name came first. */
function isSwapped(tokens: readonly SearchToken[], hits: readonly TokenHit[]): boolean {
  const firstHits = hits.filter((h) => h.side === 'first').map((h) => tokens[h.token]!);
  const lastHits = hits.filter((h) => h.side === 'last').map((h) => tokens[h.token]!);
  if (firstHits.some((t) => t.side === 'last') || lastHits.some((t) => t.side === 'first')) return true;
  if (firstHits.length === 0 || lastHits.length === 0) return false;
  const either = (t: SearchToken) => t.side === 'either';
  const firstPos = Math.min(...firstHits.filter(either).map((t) => t.position));
  const lastPos = Math.max(...lastHits.filter(either).map((t) => t.position));
  return Number.isFinite(firstPos) && Number.isFinite(lastPos) && firstPos > lastPos;
}
