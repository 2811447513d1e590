// The fuzzy ("smart") search of DESIGN.md §8: a cascade from exact words to typos, sound-alikes and prefixes,
// blocked by the date-of-birth range, ranked best first (docs/decisions/008-patient-search.md).
import type { DateRange } from '../../../contracts/ages';
import { SEARCH_RESULT_LIMIT, type FuzzySearchInput, type MatchReason, type PatientSearchResult } from '../../../contracts/patients';
import type { DbOrTx } from '../../db/client';
import { lowerLetters } from './name-normalize';
import {
  rankWords,
  SCORES,
  scoreCandidate,
  scoreWord,
  type MatchRow,
  type TokenHit,
  type WordFacts,
  type WordMatch,
} from './search-scoring';
import { findNameCandidates, findPairCandidates, type CandidateBranch, type PairCandidate, type ScoredWord } from './fuzzy.repository';
import { findByAddress, findWordCandidates, getSummaries } from './search.repository';
import { joinedTokens, maxTypos, searchTokens, wordDeletes, type SearchToken } from './search-tokens';

/** Words kept per token after ranking; prefix completions looked up per token before a prefix counts as broad. */
const WORDS_IF_KNOWN = 8;
const WORDS_IF_UNKNOWN = 40;
/** Tokens this short are searched as the start of a name (by index range), besides their exact and close words. */
const SHORT_TOKEN = 4;
const NO_FACTS: WordFacts = { via: new Set(), patients: 0 };
const PREFIX_FACTS: WordFacts = { via: new Set(['prefix']), patients: 0 };
const PREFIX_LIMIT = 100;
const CANDIDATES = 300;
/** Word similarity (pg_trgm) an address must reach to pass the address filter. */
export const ADDRESS_MIN_SIMILARITY = 0.5;
/** Results below this are noise: for two names, one misspelled name and nothing else. */
export const MIN_RESULT_SCORE = 0.45;

interface Candidate {
  patientId: number;
  dateOfBirth: string | null;
  /** One entry per matching word pair (or single name) of the patient. */
  rows: MatchRow[];
}

export type FuzzyCriteria = Pick<FuzzySearchInput, 'fullName' | 'firstName' | 'smartLastName' | 'address'>;

/** The fuzzy search among patients born in `born` (the age range of the request, translated by the caller). */
export async function fuzzySearch(db: DbOrTx, input: FuzzyCriteria, born: DateRange): Promise<PatientSearchResult[]> {
  const tokens = searchTokens(input);
  const address = input.address?.trim() || null;
  if (tokens.length === 0) return address ? addressOnly(db, address, born) : [];

  // Stage 1: the exact words. Two names with at least a full page of exact matches need nothing fuzzier.
  const exact = new Map(tokens.map((t) => [t.index, new Map([t.text, ...t.variants].map((w) => [w, scoreWord(t, w, NO_FACTS)!]))]));
  let candidates = new Map<number, Candidate>();
  if (tokens.length === 2 && !address) {
    addPairs(candidates, tokens, exact, await findPairCandidates(db, pairBranches(tokens, scored(exact)), born, CANDIDATES));
    // Nothing fuzzy can score above one exact name and one name with a single typo.
    const bestFuzzy = (SCORES.exact + SCORES.typo1 + SCORES.commonness + SCORES.closeness) / 2;
    const sure = [...candidates.values()].filter((c) => scoreCandidate(tokens, c.rows).score >= bestFuzzy);
    if (sure.length < SEARCH_RESULT_LIMIT) candidates = new Map();
  }

  // Stage 2: typos, sound-alikes, prefixes, and neighbouring words joined (double first names).
  const all = [...tokens, ...joinedTokens(tokens)];
  if (candidates.size === 0) {
    const words = await matchWords(db, all);
    candidates = await findCandidates(db, all, words, born);
  }
  return rank(db, all, [...candidates.values()], address, born);
}

interface TokenWords {
  matches: Map<number, Map<string, WordMatch>>;
  /** Tokens whose prefix completions were too many to list: searched by range instead. */
  broadPrefixes: SearchToken[];
}

async function matchWords(db: DbOrTx, tokens: readonly SearchToken[]): Promise<TokenWords> {
  const found = await findWordCandidates(
    db,
    tokens.map((t) => {
      const spellings = [t.text, ...t.variants].filter((w) => maxTypos(w) > 0).map(wordDeletes);
      return {
        token: t.index,
        text: t.text,
        trigram: t.covers.length === 1,
        words: [t.text, ...t.variants],
        deletes: [...new Set(spellings.flatMap((d) => d.one))],
        // Joined words are long: one typo, or trigrams, are enough there.
        deletes2: t.covers.length > 1 ? [] : [...new Set(spellings.flatMap((d) => d.two))],
      };
    }),
    PREFIX_LIMIT,
  );
  const byToken = new Map<number, Map<string, WordFacts>>();
  const prefixCount = new Map<number, number>();
  for (const c of found) {
    if (!c.patients) continue;
    let words = byToken.get(c.token);
    if (!words) byToken.set(c.token, (words = new Map()));
    let facts = words.get(c.word);
    if (!facts) words.set(c.word, (facts = { via: new Set(), patients: c.patients }));
    facts.via.add(c.via);
    if (c.via === 'prefix') prefixCount.set(c.token, (prefixCount.get(c.token) ?? 0) + 1);
  }
  const matches = new Map<number, Map<string, WordMatch>>();
  for (const t of tokens) {
    const words = byToken.get(t.index) ?? new Map<string, WordFacts>();
    // A token that is itself a known name needs few alternatives; a misspelled one needs a wider net.
    const known = [t.text, ...t.variants].some((w) => words.get(w)?.via.has('exact'));
    const ranked = rankWords(t, words, known ? WORDS_IF_KNOWN : WORDS_IF_UNKNOWN);
    matches.set(t.index, new Map(ranked.map((m) => [m.word, m])));
  }
  const broadPrefixes = tokens.filter(
    (t) => t.covers.length === 1 && (t.text.length <= SHORT_TOKEN || (prefixCount.get(t.index) ?? 0) >= PREFIX_LIMIT),
  );
  return { matches, broadPrefixes };
}

async function findCandidates(
  db: DbOrTx,
  tokens: readonly SearchToken[],
  words: TokenWords,
  born: DateRange,
): Promise<Map<number, Candidate>> {
  const candidates = new Map<number, Candidate>();
  const all = scored(words.matches);
  const single = tokens.filter((t) => t.covers.length === 1).length === 1;
  if (!single) {
    const branches = pairBranches(tokens, all);
    for (const prefix of words.broadPrefixes) {
      const others = all.filter((w) => !tokens[w.token]!.covers.includes(prefix.index));
      const p = { token: prefix.index, text: prefix.text };
      branches.push({ kind: 'firstPrefix', prefix: p, last: others }, { kind: 'lastPrefix', prefix: p, first: others });
    }
    addPairs(candidates, tokens, words.matches, await findPairCandidates(db, branches, born, CANDIDATES));
  }
  // One name only, or nothing matched as a pair: whole first or last names on their own.
  if (single || candidates.size === 0) {
    for (const side of ['last', 'first'] as const) {
      for (const c of await findNameCandidates(db, side, all, born, CANDIDATES)) {
        addHits(candidates, c.patientId, c.dateOfBirth, true, [hit(tokens, words.matches, c.token, side, c.word)]);
      }
    }
  }
  return candidates;
}

/** One branch per (first-name token, last-name token) pair of tokens that do not stand for the same search word. */
function pairBranches(tokens: readonly SearchToken[], words: readonly ScoredWord[]): CandidateBranch[] {
  const of = (t: SearchToken) => words.filter((w) => w.token === t.index);
  return tokens.flatMap((a) =>
    tokens
      .filter((b) => a.index !== b.index && !a.covers.some((c) => b.covers.includes(c)))
      .map((b): CandidateBranch => ({ kind: 'pair', first: of(a), last: of(b) })),
  );
}

function scored(matches: ReadonlyMap<number, ReadonlyMap<string, WordMatch>>): ScoredWord[] {
  return [...matches].flatMap(([token, words]) => [...words.values()].map((m) => ({ token, word: m.word, score: m.score })));
}

function hit(
  tokens: readonly SearchToken[],
  matches: TokenWords['matches'],
  token: number,
  side: 'first' | 'last',
  word: string,
): TokenHit {
  const m = matches.get(token)?.get(word) ?? scoreWord(tokens[token]!, word, PREFIX_FACTS);
  return { token, side, score: m?.score ?? 0, kind: m?.kind ?? 'prefix' };
}

function addPairs(
  into: Map<number, Candidate>,
  tokens: readonly SearchToken[],
  matches: TokenWords['matches'],
  pairs: readonly PairCandidate[],
): void {
  for (const p of pairs) {
    addHits(into, p.patientId, p.dateOfBirth, p.whole, [
      hit(tokens, matches, p.firstToken, 'first', p.firstWord),
      hit(tokens, matches, p.lastToken, 'last', p.lastWord),
    ]);
  }
}

function addHits(into: Map<number, Candidate>, patientId: number, dateOfBirth: string | null, whole: boolean, hits: TokenHit[]): void {
  const c = into.get(patientId);
  if (c) c.rows.push({ hits, whole });
  else into.set(patientId, { patientId, dateOfBirth, rows: [{ hits, whole }] });
}

async function rank(
  db: DbOrTx,
  tokens: readonly SearchToken[],
  candidates: readonly Candidate[],
  address: string | null,
  born: DateRange,
): Promise<PatientSearchResult[]> {
  const middle = Date.parse(`${born.from}T00:00:00Z`) / 2 + Date.parse(`${born.to}T00:00:00Z`) / 2;
  const distance = (dob: string | null) => (dob ? Math.abs(Date.parse(`${dob}T00:00:00Z`) - middle) : Infinity);
  const scoredCandidates = candidates
    .map((c) => ({ ...c, ...scoreCandidate(tokens, c.rows) }))
    .filter((c) => c.score >= MIN_RESULT_SCORE)
    .sort((a, b) => b.score - a.score || distance(a.dateOfBirth) - distance(b.dateOfBirth) || a.patientId - b.patientId)
    .slice(0, address ? CANDIDATES : SEARCH_RESULT_LIMIT);
  const details = new Map(
    (
      await getSummaries(
        db,
        scoredCandidates.map((c) => c.patientId),
        address,
      )
    ).map((d) => [d.foundId, d]),
  );
  const results: PatientSearchResult[] = [];
  // A record joined away is answered by the record it now belongs to, once (decision 048).
  const shown = new Set<number>();
  for (const c of scoredCandidates) {
    const d = details.get(c.patientId);
    if (!d || shown.has(d.id)) continue;
    const { addressSimilarity, foundId: _found, ...summary } = d;
    const exactTokens = c.hits.filter((h) => h.kind === 'exact').map((h) => tokens[h.token]!);
    const reasons = accentAware(c.reasons, exactTokens, `${d.firstName} ${d.lastName}`);
    if (address) {
      if ((addressSimilarity ?? 0) < ADDRESS_MIN_SIMILARITY) continue;
      reasons.push('search:reason.address');
    }
    shown.add(d.id);
    results.push({ ...summary, score: Math.round(c.score * 1000) / 1000, matchReasons: reasons });
    if (results.length === SEARCH_RESULT_LIMIT) break;
  }
  return results;
}

/** An exact match on the normalized names is an accent match when a typed word differs from the stored spelling. */
function accentAware(reasons: MatchReason[], exactTokens: readonly SearchToken[], storedName: string): MatchReason[] {
  if (!reasons.includes('search:reason.exact')) return [...reasons];
  const stored = new Set(
    storedName
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .map(lowerLetters)
      .filter(Boolean),
  );
  const storedJoined = lowerLetters(storedName);
  const differs = exactTokens.some((t) => !stored.has(t.typed) && !storedJoined.includes(t.typed));
  return differs ? reasons.map((r) => (r === 'search:reason.exact' ? 'search:reason.accents' : r)) : [...reasons];
}

async function addressOnly(db: DbOrTx, address: string, born: DateRange): Promise<PatientSearchResult[]> {
  const found = await findByAddress(db, address, born, SEARCH_RESULT_LIMIT);
  const details = new Map(
    (
      await getSummaries(
        db,
        found.map((f) => f.patientId),
        null,
      )
    ).map((d) => [d.foundId, d]),
  );
  const shown = new Set<number>();
  return found.flatMap((f) => {
    const d = details.get(f.patientId);
    if (!d || shown.has(d.id)) return [];
    shown.add(d.id);
    const { addressSimilarity: _unused, foundId: _found, ...summary } = d;
    return [{ ...summary, score: Math.round(f.similarity * 1000) / 1000, matchReasons: ['search:reason.address' as const] }];
  });
}
