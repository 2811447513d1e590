// Patient search queries (DESIGN.md §8, docs/decisions/001-patient-search.md). Every query is served by an index:
// name-dob and id-number by patients' own indexes; fuzzy searches by the name-word dictionary (exact words,
// deletion neighbourhoods, prefixes, double metaphone, trigrams for long words) and the word-pair index.
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { PatientSummary } from '../../../contracts/patients';
import { SCORES, type WordVia } from './search-scoring';

const PREFIX_BASE = sql.raw(String(SCORES.prefixBase));
const PREFIX_SPAN = sql.raw(String(SCORES.prefixSpan));

/** Runs raw SQL; both drivers answer with `{ rows }` (the shared Db type leaves the result untyped). */
export async function rows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** An array as one bound parameter in PostgreSQL's array literal syntax (drizzle would expand a JS array into a list). */
export function arrayLiteral(values: readonly (string | number)[]): string {
  return `{${values.map((v) => (typeof v === 'number' ? String(v) : `"${v.replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;
}
const textArray = (values: readonly string[]) => sql`${arrayLiteral(values)}::text[]`;
const intArray = (values: readonly number[]) => sql`${arrayLiteral(values)}::int[]`;
const realArray = (values: readonly number[]) => sql`${arrayLiteral(values)}::real[]`;

const SUMMARY_COLUMNS = sql`id, first_name AS "firstName", last_name AS "lastName", date_of_birth::text AS "dateOfBirth",
  id_number AS "idNumber", sex, address`;

export async function findByNameAndDateOfBirth(db: DbOrTx, lastName: string, dateOfBirth: string, limit: number): Promise<PatientSummary[]> {
  return rows(
    db,
    sql`SELECT ${SUMMARY_COLUMNS} FROM patients
         WHERE last_name_norm = nhr_norm(${lastName}) AND date_of_birth = ${dateOfBirth}::date
         ORDER BY first_name_norm, id LIMIT ${limit}`,
  );
}

export async function findByIdNumber(db: DbOrTx, idNumber: string): Promise<PatientSummary[]> {
  return rows(db, sql`SELECT ${SUMMARY_COLUMNS} FROM patients WHERE id_number = ${idNumber}`);
}

export interface PatientSummaryWithAddress extends PatientSummary {
  /** Word similarity of the searched address to the patient's address (0-1), when an address was searched. */
  addressSimilarity: number | null;
}

export async function getSummaries(db: DbOrTx, ids: readonly number[], address: string | null): Promise<PatientSummaryWithAddress[]> {
  if (ids.length === 0) return [];
  const similarity = address ? sql`word_similarity(nhr_fold(${address}), nhr_fold(address))` : sql`NULL::real`;
  return rows(db, sql`SELECT ${SUMMARY_COLUMNS}, ${similarity} AS "addressSimilarity" FROM patients WHERE id = ANY(${intArray(ids)})`);
}

export interface WordCandidate {
  token: number;
  word: string;
  via: WordVia;
  /** Patients with this word in a name. */
  patients: number;
}

export interface TokenQuery {
  token: number;
  /** The normalized word and its variants: looked up exactly. */
  words: string[];
  /** Deletion neighbourhood of the main word (typos). */
  deletes: string[];
  /** The main word: prefix, phonetic and (for long words) trigram lookups. */
  text: string;
}

/** Candidate dictionary words for every token, in one statement. `prefixLimit` caps the prefix completions per token. */
export async function findWordCandidates(db: DbOrTx, tokens: readonly TokenQuery[], prefixLimit: number): Promise<WordCandidate[]> {
  const exact = tokens.flatMap((t) => t.words.map((w) => [t.token, w] as const));
  const dels = tokens.flatMap((t) => t.deletes.map((d) => [t.token, d] as const));
  return rows(
    db,
    sql`WITH t AS (SELECT * FROM unnest(${intArray(tokens.map((t) => t.token))}, ${textArray(tokens.map((t) => t.text))}) AS t(tok, q)),
             e AS (SELECT * FROM unnest(${intArray(exact.map((x) => x[0]))}, ${textArray(exact.map((x) => x[1]))}) AS e(tok, q)),
             d AS (SELECT * FROM unnest(${intArray(dels.map((x) => x[0]))}, ${textArray(dels.map((x) => x[1]))}) AS d(tok, del)),
             found AS (
               SELECT e.tok, e.q AS word, 'exact' AS via FROM e
               UNION ALL
               SELECT DISTINCT d.tok, x.word, 'delete' FROM d JOIN name_word_deletes AS x ON x.del = d.del
               UNION ALL
               SELECT t.tok, p.word, 'prefix' FROM t CROSS JOIN LATERAL (
                 SELECT word FROM name_words WHERE word ~>=~ t.q AND word ~<~ (t.q || '~') AND word <> t.q AND patients > 0 LIMIT ${prefixLimit}
               ) AS p WHERE length(t.q) >= 2
               UNION ALL
               SELECT t.tok, w.word, 'phonetic' FROM t JOIN name_words AS w
                   ON (w.dm IN (nhr_dmetaphone(t.q), nhr_dmetaphone_alt(t.q)) OR w.dm_alt IN (nhr_dmetaphone(t.q), nhr_dmetaphone_alt(t.q)))
                WHERE length(t.q) >= 5 AND levenshtein(w.word, t.q) <= 3
               UNION ALL
               SELECT t.tok, w.word, 'trigram' FROM t JOIN name_words AS w ON length(w.word) >= 11 AND w.word % t.q
                WHERE length(t.q) >= 11 AND similarity(w.word, t.q) >= 0.45
             )
        SELECT f.tok AS token, f.word, f.via, w.patients FROM found AS f JOIN name_words AS w ON w.word = f.word WHERE w.patients > 0`,
  );
}

export interface DateRange {
  from: string;
  to: string;
}

export interface ScoredWord {
  token: number;
  word: string;
  score: number;
}

export interface PairCandidate {
  patientId: number;
  dateOfBirth: string | null;
  firstToken: number;
  lastToken: number;
  firstWord: string;
  lastWord: string;
  whole: boolean;
  score: number;
}

const scoredWords = (words: readonly ScoredWord[]) =>
  sql`unnest(${intArray(words.map((w) => w.token))}, ${textArray(words.map((w) => w.word))}, ${realArray(words.map((w) => w.score))})`;

/**
 * Patients having a matched word of one token in the first name and a matched word of another token in the last
 * name, born in the range: one index range scan per word pair, per ordered pair of tokens. Best pairs first.
 */
export async function findPairCandidates(db: DbOrTx, words: readonly ScoredWord[], born: DateRange, limit: number): Promise<PairCandidate[]> {
  const tokens = [...new Set(words.map((w) => w.token))];
  const wordsOf = (token: number) => textArray([...new Set(words.filter((w) => w.token === token).map((w) => w.word))]);
  const branches = tokens.flatMap((i) =>
    tokens
      .filter((j) => j !== i)
      .map(
        (j) => sql`SELECT k.patient_id, k.date_of_birth, f.tok AS first_tok, l.tok AS last_tok, k.first_word, k.last_word, k.whole,
                          f.score + l.score AS score
                     FROM patient_name_pairs AS k
                     JOIN m AS f ON f.tok = ${i}::int AND f.word = k.first_word
                     JOIN m AS l ON l.tok = ${j}::int AND l.word = k.last_word
                    WHERE k.first_word = ANY(${wordsOf(i)}) AND k.last_word = ANY(${wordsOf(j)})
                      AND k.date_of_birth BETWEEN ${born.from}::date AND ${born.to}::date`,
      ),
  );
  if (branches.length === 0) return [];
  return rows(
    db,
    sql`WITH m AS (SELECT * FROM ${scoredWords(words)} AS m(tok, word, score))
        SELECT patient_id AS "patientId", date_of_birth::text AS "dateOfBirth", first_tok AS "firstToken", last_tok AS "lastToken",
               first_word AS "firstWord", last_word AS "lastWord", whole, score::real AS score
          FROM (${sql.join(branches, sql` UNION ALL `)}) AS c
         ORDER BY score DESC, abs(date_of_birth - ${midpoint(born)}::date), patient_id
         LIMIT ${limit}`,
  );
}

/** As findPairCandidates, with the first-name side given only by its start ('Nda' for Ndapewa). */
export async function findPairCandidatesByFirstPrefix(
  db: DbOrTx,
  prefix: { token: number; text: string },
  lastWords: readonly ScoredWord[],
  born: DateRange,
  limit: number,
): Promise<PairCandidate[]> {
  const middle = midpoint(born);
  return rows(
    db,
    sql`WITH m AS (SELECT * FROM ${scoredWords(lastWords)} AS m(tok, word, score))
        SELECT k.patient_id AS "patientId", k.date_of_birth::text AS "dateOfBirth", ${prefix.token}::int AS "firstToken", l.tok AS "lastToken",
               k.first_word AS "firstWord", k.last_word AS "lastWord", k.whole,
               (l.score + ${PREFIX_BASE} + ${PREFIX_SPAN} * length(${prefix.text})::real / length(k.first_word))::real AS score
          FROM patient_name_pairs AS k
          JOIN m AS l ON l.word = k.last_word AND l.tok <> ${prefix.token}
         WHERE k.last_word = ANY(${textArray([...new Set(lastWords.map((w) => w.word))])})
           AND k.first_word ~>=~ ${prefix.text} AND k.first_word ~<~ (${prefix.text} || '~')
           AND k.date_of_birth BETWEEN ${born.from}::date AND ${born.to}::date
         ORDER BY score DESC, abs(k.date_of_birth - ${middle}::date), k.patient_id
         LIMIT ${limit}`,
  );
}

export interface NameCandidate {
  patientId: number;
  dateOfBirth: string | null;
  token: number;
  word: string;
  /** The other name of the patient (normalized): its last name when `word` matched the first name, and back. */
  otherName: string;
  score: number;
}

/**
 * Patients whose whole first (or last) name is one of the words, born in the range; optionally with the other name
 * starting with `otherPrefix`. Served by (first_name_norm | last_name_norm, date_of_birth) INCLUDE (other name, id).
 */
export async function findNameCandidates(
  db: DbOrTx,
  side: 'first' | 'last',
  words: readonly ScoredWord[],
  born: DateRange,
  otherPrefix: string | null,
  limit: number,
): Promise<NameCandidate[]> {
  const [own, other] = side === 'first' ? [sql`p.first_name_norm`, sql`p.last_name_norm`] : [sql`p.last_name_norm`, sql`p.first_name_norm`];
  const prefix = otherPrefix ? sql`AND ${other} ~>=~ ${otherPrefix} AND ${other} ~<~ (${otherPrefix} || '~')` : sql``;
  return rows(
    db,
    sql`WITH m AS (SELECT * FROM ${scoredWords(words)} AS m(tok, word, score))
        SELECT p.id AS "patientId", p.date_of_birth::text AS "dateOfBirth", m.tok AS token, m.word, ${other} AS "otherName", m.score
          FROM patients AS p JOIN m ON m.word = ${own}
         WHERE ${own} = ANY(${textArray([...new Set(words.map((w) => w.word))])})
           AND p.date_of_birth BETWEEN ${born.from}::date AND ${born.to}::date ${prefix}
         ORDER BY m.score DESC, abs(p.date_of_birth - ${midpoint(born)}::date), p.id
         LIMIT ${limit}`,
  );
}

/** Patients whose address contains the words of `address` (tolerating typos), born in the range, closest first. */
export async function findByAddress(db: DbOrTx, address: string, born: DateRange, limit: number): Promise<{ patientId: number; similarity: number }[]> {
  return rows(
    db,
    sql`SELECT id AS "patientId", word_similarity(nhr_fold(${address}), nhr_fold(address)) AS similarity
          FROM patients
         WHERE nhr_fold(address) %> nhr_fold(${address}) AND date_of_birth BETWEEN ${born.from}::date AND ${born.to}::date
         ORDER BY similarity DESC, id
         LIMIT ${limit}`,
  );
}

function midpoint(range: DateRange): string {
  const from = Date.parse(`${range.from}T00:00:00Z`);
  const to = Date.parse(`${range.to}T00:00:00Z`);
  return new Date(from + Math.floor((to - from) / 2 / 86_400_000) * 86_400_000).toISOString().slice(0, 10);
}

