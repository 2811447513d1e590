// The application-side twins of the database functions must agree with them; the scoring helpers on their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { normalizeName } from './name-normalize';
import { osaDistance, scorePatient, trigrams, trigramSetSimilarAtLeast, trigramSetSimilarity, trigramSimilarity } from './search-scoring';
import { searchTokens, wordDeletes } from './search-tokens';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.dispose();
});
const query = async <T>(text: ReturnType<typeof sql>): Promise<T[]> =>
  ((await database.handle.db.execute(text)) as unknown as { rows: T[] }).rows;

const NAMES = [
  'Müller',
  'Straßer',
  'van der Merwe',
  "O'Brien",
  '!Naruseb',
  '//Hoebes',
  'ǂGaeb',
  'Kotzé',
  'Anaïs',
  'Ettiënne',
  'Nangolo-Shikongo',
  'Zoë Renée',
  'Bjørn',
  'Æsa',
];

describe('mirrors of the database functions', () => {
  it('normalizes names like nhr_norm()', async () => {
    for (const name of NAMES) {
      const [row] = await query<{ n: string }>(sql`SELECT nhr_norm(${name}) AS n`);
      expect(normalizeName(name), name).toBe(row!.n);
    }
  });

  it('computes the same deletion neighbourhoods as nhr_word_deletes() for words up to 10 letters', async () => {
    for (const word of ['ab', 'abc', 'maria', 'shikongo', 'aabbaa', 'ndeshipanda']) {
      const rows = await query<{ d: string }>(sql`SELECT DISTINCT d FROM nhr_word_deletes(${word}) AS d`);
      const stored = rows.map((r) => r.d).sort();
      const { one: oneDeleted, two: twoDeleted } = wordDeletes(word);
      const mine = [...oneDeleted, ...twoDeleted].sort();
      if (word.length <= 10) expect(mine, word).toEqual(stored);
      else
        expect(
          stored.every((d) => mine.includes(d)),
          word,
        ).toBe(true); // stored: one deletion only
    }
  });

  it('finds the same words of a name as nhr_name_words()', async () => {
    const rows = await query<{ word: string; whole: boolean }>(sql`SELECT * FROM nhr_name_words('Johannes van der Merwe') ORDER BY word`);
    expect(rows).toEqual([
      { word: 'johannes', whole: false },
      { word: 'johannesvandermerwe', whole: true },
      { word: 'merwe', whole: false },
    ]);
    const tokens = searchTokens({ fullName: 'Johannes van der Merwe' });
    expect(tokens.map((t) => [t.text, t.variants])).toEqual([
      ['johannes', []],
      ['merwe', ['vandermerwe']],
    ]);
  });
});

describe('search tokens', () => {
  it('keeps the typed spelling, the field each word came from, and drops repeats', () => {
    const tokens = searchTokens({ firstName: 'Jürgen', smartLastName: "O'Brien-Müller Müller" });
    expect(tokens.map((t) => [t.text, t.typed, t.side, t.variants])).toEqual([
      ['jurgen', 'jürgen', 'first', []],
      ['brien', 'obrien', 'last', ['obrien']],
      ['muller', 'müller', 'last', []],
    ]);
    expect(searchTokens({ fullName: '!!! ###' })).toEqual([]);
  });

  it('caps a search at six words', () => {
    expect(searchTokens({ fullName: 'a1 b2 c3 d4 e5 f6 g7 h8' })).toHaveLength(6);
  });
});

describe('scoring', () => {
  it('counts typos with adjacent swaps as one', () => {
    expect(osaDistance('maria', 'maira', 2)).toBe(1);
    expect(osaDistance('shikongo', 'shikonga', 2)).toBe(1);
    expect(osaDistance('shikongo', 'shkonga', 2)).toBe(2);
    expect(osaDistance('shikongo', 'amutenya', 2)).toBe(3);
    expect(osaDistance('', 'abc', 5)).toBe(3);
  });

  it('computes trigram similarity like pg_trgm', async () => {
    for (const [a, b] of [
      ['shikongo', 'shikonga'],
      ['maria', 'maira'],
      ['nghipondoka', 'nghipondka'],
      ['banana', 'bananas'],
      ['aaaa', 'aaa'],
    ] as const) {
      const [row] = await query<{ s: number }>(sql`SELECT similarity(${a}, ${b}) AS s`);
      expect(trigramSimilarity(a, b)).toBeCloseTo(row!.s, 5);
    }
  });

  it('answers "at least" as the similarity itself would, also when the lengths alone decide', () => {
    const words = ['shikongo', 'shikonga', 'maria', 'maira', 'banana', 'bananas', 'aaaa', 'a', '', 'nghipondoka', 'nghipondka'];
    for (const a of words)
      for (const b of words)
        for (const min of [0.3, 0.5, 0.8]) {
          const [ga, gb] = [trigrams(a), trigrams(b)];
          expect(trigramSetSimilarAtLeast(ga, gb, min)).toBe(trigramSetSimilarity(ga, gb) >= min);
        }
  });

  it('averages token scores, and marks swapped names and partial names', () => {
    const tokens = searchTokens({ fullName: 'Shikongo Ndapewa' });
    const swapped = scorePatient(
      tokens,
      [
        { token: 0, side: 'last', score: 1, kind: 'exact' },
        { token: 1, side: 'first', score: 1, kind: 'exact' },
      ],
      { whole: false },
    );
    expect(swapped.reasons.sort()).toEqual(['search:reason.namesSwapped', 'search:reason.partOfName']);
    expect(swapped.score).toBeCloseTo(0.95 * 0.97, 5);
    const half = scorePatient(tokens, [{ token: 1, side: 'last', score: 0.86, kind: 'typo' }], { whole: true });
    expect(half).toEqual({ score: 0.43, reasons: ['search:reason.typo'] });
  });
});
