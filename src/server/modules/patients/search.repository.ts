// Patient search queries (DESIGN.md §8, docs/decisions/008-patient-search.md). Every query is served by an index:
// name-dob and id-number by patients' own indexes; fuzzy searches by the name-word dictionary (exact words,
// deletion neighbourhoods, prefixes, double metaphone, trigrams for long words) and the word-pair index.
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { patientSummary, type PatientSearchResult, type PatientSummary } from '../../../contracts/patients';
import { currentIdSql } from '../../db/joined-patients';
import type { WordVia } from './search-scoring';

/** Runs raw SQL; both drivers answer with `{ rows }` (the shared Db type leaves the result untyped). */
export async function rows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** An array as one bound parameter in PostgreSQL's array literal syntax (drizzle would expand a JS array into a list). */
export function arrayLiteral(values: readonly (string | number)[]): string {
  return `{${values.map((v) => (typeof v === 'number' ? String(v) : `"${v.replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;
}
export const textArray = (values: readonly string[]): SQL => sql`${arrayLiteral(values)}::text[]`;
export const intArray = (values: readonly number[]): SQL => sql`${arrayLiteral(values)}::int[]`;

export const SUMMARY_COLUMNS = sql`id, first_name AS "firstName", last_name AS "lastName", date_of_birth::text AS "dateOfBirth",
  id_number AS "idNumber", sex, address`;

/** The summary columns of `alias`'s row (a qualified SUMMARY_COLUMNS). */
const summaryColumnsOf = (alias: string): SQL => {
  const a = sql.raw(alias);
  return sql`${a}.id, ${a}.first_name AS "firstName", ${a}.last_name AS "lastName", ${a}.date_of_birth::text AS "dateOfBirth",
    ${a}.id_number AS "idNumber", ${a}.sex, ${a}.address`;
};

/**
 * The NC number search: the patient with this number or, when that record was joined into another (decision 048),
 * the record it now belongs to, with `joinedFrom` naming the number searched (null otherwise).
 */
export function idNumberSearchSql(idNumber: string | SQL): SQL {
  return sql`SELECT ${summaryColumnsOf('s')},
                    CASE WHEN m.replaced_by IS NOT NULL THEN json_build_object('idNumber', m.id_number) END AS "joinedFrom"
               FROM patients AS m JOIN patients AS s ON s.id = ${currentIdSql(sql`m.id`, sql`m.replaced_by`)}
              WHERE m.id_number = ${idNumber}`;
}

/** The last name + date of birth search; a record joined away is answered by the record it now belongs to, once. */
export function nameDobSearchSql(lastName: string | SQL, dateOfBirth: string | SQL, limit: number | SQL): SQL {
  return sql`SELECT ${summaryColumnsOf('s')}, NULL::json AS "joinedFrom"
               FROM (SELECT f.sid, min(f.o) AS o
                       FROM (SELECT ${currentIdSql(sql`m.id`, sql`m.replaced_by`)} AS sid, row_number() OVER (ORDER BY m.first_name_norm, m.id) AS o
                               FROM patients AS m
                              WHERE m.last_name_norm = nhr_norm(${lastName}) AND m.date_of_birth = ${dateOfBirth}::date
                              ORDER BY m.first_name_norm, m.id LIMIT ${limit}) AS f
                      GROUP BY f.sid) AS g
               JOIN patients AS s ON s.id = g.sid
              ORDER BY g.o`;
}

/** The summary's keys in the contract's order (patientSummary): the JSON answer's keys. */
const SUMMARY_KEYS = Object.keys(patientSummary.shape);

/**
 * A found row of the exact searches (summary columns and `joinedFrom`, as `alias`) as its object of the API's JSON
 * answer, built by the statement (issue 29): the contract's keys, and `joinedFrom` only when set, as withoutEmptyJoin.
 * search-answer.test.ts holds it to the contract.
 */
export function summaryJsonOf(alias: string): SQL {
  const pairs = sql.join(
    SUMMARY_KEYS.map((key) => sql.raw(`'${key}', ${alias}."${key}"`)),
    sql`, `,
  );
  return sql`CASE WHEN ${sql.raw(alias)}."joinedFrom" IS NULL THEN json_build_object(${pairs})
                  ELSE json_build_object(${pairs}, 'joinedFrom', ${sql.raw(alias)}."joinedFrom") END`;
}

/** A found row without a null `joinedFrom`. */
export function withoutEmptyJoin<T extends { joinedFrom?: { idNumber: string } | null }>(row: T): T {
  if (row.joinedFrom) return row;
  const { joinedFrom: _none, ...rest } = row;
  return rest as T;
}

type FoundRow = PatientSummary & { joinedFrom?: { idNumber: string } | null };

export async function findByNameAndDateOfBirth(
  db: DbOrTx,
  lastName: string,
  dateOfBirth: string,
  limit: number,
): Promise<PatientSearchResult[]> {
  return (await rows<FoundRow>(db, nameDobSearchSql(lastName, dateOfBirth, limit))).map(withoutEmptyJoin) as PatientSearchResult[];
}

export async function findByIdNumber(db: DbOrTx, idNumber: string): Promise<PatientSearchResult[]> {
  return (await rows<FoundRow>(db, idNumberSearchSql(idNumber))).map(withoutEmptyJoin) as PatientSearchResult[];
}

export interface PatientSummaryWithAddress extends PatientSummary {
  /** Word similarity of the searched address to the patient's address (0-1), when an address was searched. */
  addressSimilarity: number | null;
  /** The candidate this summary answers: `id` itself, or a record joined into `id` (decision 048). */
  foundId: number;
}

/** The candidates' summaries; a record joined away is answered by the record it now belongs to. */
export async function getSummaries(db: DbOrTx, ids: readonly number[], address: string | null): Promise<PatientSummaryWithAddress[]> {
  if (ids.length === 0) return [];
  const similarity = address ? sql`word_similarity(nhr_fold(${address}), nhr_fold(s.address))` : sql`NULL::real`;
  return rows(
    db,
    sql`SELECT ${summaryColumnsOf('s')}, ${similarity} AS "addressSimilarity", m.id AS "foundId"
          FROM patients AS m JOIN patients AS s ON s.id = ${currentIdSql(sql`m.id`, sql`m.replaced_by`)}
         WHERE m.id = ANY(${intArray(ids)})`,
  );
}

export interface WordCandidate {
  token: number;
  word: string;
  via: WordVia;
  /** Patients with this word in a name; 0 or null for a word no patient carries. */
  patients: number | null;
}

export interface TokenQuery {
  token: number;
  /** The normalized word and its variants: looked up exactly. */
  words: string[];
  /** Deletion neighbourhood of the main word: one letter deleted (typos). */
  deletes: string[];
  /** Two letters deleted: looked up only when the word itself is not a known name. */
  deletes2: string[];
  /** The main word: prefix, phonetic and (for long words) trigram lookups. */
  text: string;
  /** Whether a long unknown word may be looked up by trigrams (not for joined words: they would match any name). */
  trigram: boolean;
}

/** Candidate dictionary words for every token, in one statement. `prefixLimit` caps the prefix completions per token. */
export async function findWordCandidates(db: DbOrTx, tokens: readonly TokenQuery[], prefixLimit: number): Promise<WordCandidate[]> {
  const exact = tokens.flatMap((t) => t.words.map((w) => [t.token, w] as const));
  const dels = tokens.flatMap((t) => [
    ...t.deletes.map((d) => [t.token, d, 1] as const),
    ...t.deletes2.map((d) => [t.token, d, 2] as const),
  ]);
  return rows(
    db,
    sql`WITH t AS (SELECT * FROM unnest(${intArray(tokens.map((t) => t.token))}, ${textArray(tokens.map((t) => t.text))},
                                        ${sql`${arrayLiteral(tokens.map((t) => (t.trigram ? 'true' : 'false')))}::boolean[]`}) AS t(tok, q, trigram)),
             e AS (SELECT * FROM unnest(${intArray(exact.map((x) => x[0]))}, ${textArray(exact.map((x) => x[1]))}) AS e(tok, q)),
             known AS (SELECT DISTINCT e.tok FROM e JOIN name_words AS w ON w.word = e.q AND w.patients > 0),
             d AS (SELECT * FROM unnest(${intArray(dels.map((x) => x[0]))}, ${textArray(dels.map((x) => x[1]))}, ${intArray(dels.map((x) => x[2]))}) AS d(tok, del, level)
                    WHERE level = 1 OR tok NOT IN (SELECT tok FROM known)),
             found AS (
               SELECT e.tok, e.q AS word, 'exact' AS via FROM e
               UNION ALL
               SELECT DISTINCT d.tok, x.word, 'delete' FROM d JOIN name_word_deletes AS x ON x.del = d.del
               UNION ALL
               -- Completions of a name typed in part (up to 7 letters; longer words are whole names or typos).
               SELECT t.tok, p.word, 'prefix' FROM t CROSS JOIN LATERAL (
                 SELECT word FROM name_words WHERE word ~>=~ t.q AND word ~<~ (t.q || '~') AND word <> t.q AND patients > 0 LIMIT ${prefixLimit}
               ) AS p WHERE length(t.q) BETWEEN 2 AND 7
               UNION ALL
               -- Sound-alikes among single words (the phonetic indexes leave out long concatenated names).
               SELECT t.tok, w.word, 'phonetic' FROM t JOIN name_words AS w
                   ON (w.dm IN (nhr_dmetaphone(t.q), nhr_dmetaphone_alt(t.q)) OR w.dm_alt IN (nhr_dmetaphone(t.q), nhr_dmetaphone_alt(t.q)))
                  AND length(w.word) <= 12
                WHERE length(t.q) BETWEEN 5 AND 12 AND levenshtein(w.word, t.q) <= 3
               UNION ALL
               -- Long words beyond the stored deletion neighbourhoods, when the word itself is not a known name.
               SELECT t.tok, w.word, 'trigram' FROM t JOIN name_words AS w ON length(w.word) >= 11 AND w.word % t.q
                WHERE t.trigram AND length(t.q) >= 9 AND similarity(w.word, t.q) >= 0.4
                  AND t.tok NOT IN (SELECT tok FROM known)
             )
        -- A scalar subquery per found word: a join would tempt the planner into reading the whole dictionary.
        SELECT f.tok AS token, f.word, f.via, (SELECT w.patients FROM name_words AS w WHERE w.word = f.word) AS patients FROM found AS f`,
  );
}

export interface DateRange {
  from: string;
  to: string;
}

/** Patients whose address contains the words of `address` (tolerating typos), born in the range, closest first. */
export async function findByAddress(
  db: DbOrTx,
  address: string,
  born: DateRange,
  limit: number,
): Promise<{ patientId: number; similarity: number }[]> {
  return rows(
    db,
    sql`SELECT id AS "patientId", word_similarity(nhr_fold(${address}), nhr_fold(address)) AS similarity
          FROM patients
         WHERE nhr_fold(address) %> nhr_fold(${address}) AND date_of_birth BETWEEN ${born.from}::date AND ${born.to}::date
         ORDER BY similarity DESC, id
         LIMIT ${limit}`,
  );
}

export function midpoint(range: DateRange): string {
  const from = Date.parse(`${range.from}T00:00:00Z`);
  const to = Date.parse(`${range.to}T00:00:00Z`);
  return new Date(from + Math.floor((to - from) / 2 / 86_400_000) * 86_400_000).toISOString().slice(0, 10);
}
