// Candidate patients of a fuzzy search, in one statement: for each pair of search tokens, the patients having a
// matched word of one in the first name and of the other in the last name (patient_name_pairs, one index range scan
// per word pair); for a token typed as the start of a name, range scans on that name. Born in the range, best first.
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { SCORES } from './search-scoring';
import { midpoint, rows, textArray, type DateRange } from './search.repository';

export interface ScoredWord {
  token: number;
  word: string;
  score: number;
}

export interface Prefix {
  token: number;
  /** The normalized start of a name. */
  text: string;
}

export type CandidateBranch =
  | { kind: 'pair'; first: readonly ScoredWord[]; last: readonly ScoredWord[] }
  /** The first name starts with the prefix; the last name is one of the words. */
  | { kind: 'firstPrefix'; prefix: Prefix; last: readonly ScoredWord[] }
  /** The last name starts with the prefix; the whole first name is one of the words. */
  | { kind: 'lastPrefix'; prefix: Prefix; first: readonly ScoredWord[] };

export interface PairCandidate {
  patientId: number;
  dateOfBirth: string | null;
  firstToken: number;
  lastToken: number;
  firstWord: string;
  lastWord: string;
  /** Both words are the whole names, not parts of longer ones. */
  whole: boolean;
  score: number;
}

const PREFIX_BASE = sql.raw(String(SCORES.prefixBase));
const PREFIX_SPAN = sql.raw(String(SCORES.prefixSpan));

/** For each word, its best-scoring token. */
function bestByWord(words: readonly ScoredWord[]): { score: Map<string, number>; token: Map<string, number> } {
  const score = new Map<string, number>();
  const token = new Map<string, number>();
  for (const w of words) {
    if ((score.get(w.word) ?? -1) < w.score) {
      score.set(w.word, w.score);
      token.set(w.word, w.token);
    }
  }
  return { score, token };
}

/**
 * A word's score (or token) as a CASE expression over the column. Inlined rather than joined, so that the planner
 * keeps both word lists as index conditions (a join turns one of them into a filter over every row of a name).
 */
function caseOf(column: SQL, values: ReadonlyMap<string, number>, type: 'real' | 'int'): SQL {
  const cast = sql.raw(type);
  return sql`(CASE ${column} ${sql.join(
    [...values].map(([w, v]) => sql`WHEN ${w} THEN ${v}::${cast}`),
    sql` `,
  )} END)`;
}

const startsWith = (column: SQL, prefix: string) => sql`${column} ~>=~ ${prefix} AND ${column} ~<~ ${`${prefix}~`}`;
const prefixScore = (prefix: string, column: SQL) => sql`${PREFIX_BASE} + ${PREFIX_SPAN} * ${prefix.length}::real / length(${column})`;

function branchSql(branch: CandidateBranch, born: DateRange): SQL | null {
  const range = sql`BETWEEN ${born.from}::date AND ${born.to}::date`;
  if (branch.kind === 'pair') {
    const [first, last] = [bestByWord(branch.first), bestByWord(branch.last)];
    if (first.score.size === 0 || last.score.size === 0) return null;
    return sql`SELECT k.patient_id, k.date_of_birth, ${caseOf(sql`k.first_word`, first.token, 'int')} AS first_tok,
                      ${caseOf(sql`k.last_word`, last.token, 'int')} AS last_tok, k.first_word, k.last_word, k.whole,
                      ${caseOf(sql`k.first_word`, first.score, 'real')} + ${caseOf(sql`k.last_word`, last.score, 'real')} AS score
                 FROM patient_name_pairs AS k
                WHERE k.first_word = ANY(${textArray([...first.score.keys()])}) AND k.last_word = ANY(${textArray([...last.score.keys()])})
                  AND k.date_of_birth ${range}`;
  }
  if (branch.kind === 'firstPrefix') {
    const last = bestByWord(branch.last);
    if (last.score.size === 0) return null;
    return sql`SELECT k.patient_id, k.date_of_birth, ${branch.prefix.token}::int AS first_tok, ${caseOf(sql`k.last_word`, last.token, 'int')} AS last_tok,
                      k.first_word, k.last_word, k.whole,
                      ${caseOf(sql`k.last_word`, last.score, 'real')} + ${prefixScore(branch.prefix.text, sql`k.first_word`)} AS score
                 FROM patient_name_pairs AS k
                WHERE k.last_word = ANY(${textArray([...last.score.keys()])}) AND ${startsWith(sql`k.first_word`, branch.prefix.text)}
                  AND k.date_of_birth ${range}`;
  }
  const first = bestByWord(branch.first);
  if (first.score.size === 0) return null;
  // Served by patients (first_name_norm, date_of_birth) INCLUDE (last_name_norm, id): whole first names only.
  return sql`SELECT p.id AS patient_id, p.date_of_birth, ${caseOf(sql`p.first_name_norm`, first.token, 'int')} AS first_tok,
                    ${branch.prefix.token}::int AS last_tok, p.first_name_norm AS first_word, p.last_name_norm AS last_word, true AS whole,
                    ${caseOf(sql`p.first_name_norm`, first.score, 'real')} + ${prefixScore(branch.prefix.text, sql`p.last_name_norm`)} AS score
               FROM patients AS p
              WHERE p.first_name_norm = ANY(${textArray([...first.score.keys()])}) AND ${startsWith(sql`p.last_name_norm`, branch.prefix.text)}
                AND p.date_of_birth ${range}`;
}

export async function findPairCandidates(
  db: DbOrTx,
  branches: readonly CandidateBranch[],
  born: DateRange,
  limit: number,
): Promise<PairCandidate[]> {
  const parts = branches.map((b) => branchSql(b, born)).filter((b): b is SQL => b !== null);
  if (parts.length === 0) return [];
  return rows(
    db,
    sql`SELECT patient_id AS "patientId", date_of_birth::text AS "dateOfBirth", first_tok AS "firstToken", last_tok AS "lastToken",
               first_word AS "firstWord", last_word AS "lastWord", whole, score::real AS score
          FROM (${sql.join(parts, sql` UNION ALL `)}) AS c
         ORDER BY score DESC, abs(date_of_birth - ${midpoint(born)}::date), patient_id
         LIMIT ${limit}`,
  );
}

export interface NameCandidate {
  patientId: number;
  dateOfBirth: string | null;
  token: number;
  word: string;
  score: number;
}

/** Patients whose whole first (or last) name is one of the words, born in the range (a search on one name). */
export async function findNameCandidates(
  db: DbOrTx,
  side: 'first' | 'last',
  words: readonly ScoredWord[],
  born: DateRange,
  limit: number,
): Promise<NameCandidate[]> {
  if (words.length === 0) return [];
  const own = side === 'first' ? sql`p.first_name_norm` : sql`p.last_name_norm`;
  const best = bestByWord(words);
  return rows(
    db,
    sql`SELECT * FROM (
          SELECT p.id AS "patientId", p.date_of_birth::text AS "dateOfBirth", ${caseOf(own, best.token, 'int')} AS token, ${own} AS word,
                 ${caseOf(own, best.score, 'real')} AS score, p.date_of_birth AS born
            FROM patients AS p
           WHERE ${own} = ANY(${textArray([...best.score.keys()])}) AND p.date_of_birth BETWEEN ${born.from}::date AND ${born.to}::date) AS c
         ORDER BY score DESC, abs(born - ${midpoint(born)}::date), "patientId"
         LIMIT ${limit}`,
  );
}
