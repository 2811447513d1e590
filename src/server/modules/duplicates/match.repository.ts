// The matcher's statements (decision 046): candidate pairs by blocking key (nhr_match_keys and its GIN index,
// migration 0047), the records to score, and keeping the proposed pairs. Decided pairs are never touched here.
import { sql, type SQL } from 'drizzle-orm';
import type { MatchBand } from '../../../contracts/duplicates';
import type { DbOrTx } from '../../db/client';
import { intArray, rows, textArray } from '../patients/search.repository';
import type { MatchPerson } from './match-scoring';

/** Candidates kept per patient: a block larger than this (a very common name on one day) is cut, lowest ids first. */
export const CANDIDATES_PER_PATIENT = 200;

const personOf = (alias: string) => {
  const p = sql.raw(alias);
  return sql`${p}.id, ${p}.first_name AS "firstName", ${p}.last_name AS "lastName",
  ARRAY[coalesce(nhr_dmetaphone(${p}.first_name_norm), ''), coalesce(nhr_dmetaphone_alt(${p}.first_name_norm), '')] AS "firstCodes",
  ARRAY[coalesce(nhr_dmetaphone(${p}.last_name_norm), ''), coalesce(nhr_dmetaphone_alt(${p}.last_name_norm), '')] AS "lastCodes",
  ${p}.date_of_birth::text AS "dateOfBirth", ${p}.sex, ${p}.address, ${p}.contact_number AS "contactNumber"`;
};
const PERSON = personOf('p');

export async function readPeople(db: DbOrTx, ids: readonly number[]): Promise<MatchPerson[]> {
  if (ids.length === 0) return [];
  return rows(db, sql`SELECT ${PERSON} FROM patients AS p WHERE p.id = ANY(${intArray(ids)})`);
}

/** The next `limit` patient ids after `after`, up to `max`; records joined into another (decision 048) are left out. */
export async function nextChunk(db: DbOrTx, after: number, max: number, limit: number): Promise<number[]> {
  const found = await rows<{ id: number }>(
    db,
    sql`SELECT id FROM patients WHERE id > ${after} AND id <= ${max} AND replaced_by IS NULL ORDER BY id LIMIT ${limit}`,
  );
  return found.map((r) => r.id);
}

/**
 * Records joined into another (replaced_by set, decision 048) are never candidates: their survivor stands for them.
 * `b.id + 0`: the id condition and the order must apply to the key's few rows; on the bare id the planner ANDs a range
 * of the primary key into every lookup, or walks the whole primary key in order (seconds per patient at 1,000,000).
 */
const candidatesOf = (keys: SQL, other: SQL, columns: SQL = sql`b.id`) =>
  sql`SELECT ${columns} FROM patients AS b
       WHERE nhr_match_keys(b.first_name_norm, b.last_name_norm, b.date_of_birth) && ${keys} AND ${other}
         AND b.replaced_by IS NULL
       ORDER BY b.id + 0 LIMIT ${CANDIDATES_PER_PATIENT}`;
const keysOf = (alias: string) => {
  const c = sql.raw(alias);
  return sql`nhr_match_keys(${c}.first_name_norm, ${c}.last_name_norm, ${c}.date_of_birth)`;
};

/**
 * False only for dates of birth that compareDates (match-scoring.ts) calls 'different': true when either is missing,
 * they are a day apart, month and day agree (a year or a digit of it off), or in the same year the day and month are
 * swapped, or the month agrees and the day is one digit (or two swapped digits) off, or the day agrees and the month is. It may be true for
 * some 'different' pairs too (the scoring decides those); never false for another agreement (tested against
 * compareDates). Plain arithmetic on two columns, so PostgreSQL evaluates it inline on each candidate row.
 */
export const datesMayAgree = (a: SQL, b: SQL) => {
  const part = (field: 'year' | 'month' | 'day', d: SQL) => sql`date_part(${sql.raw(`'${field}'`)}, ${d})`;
  const [ya, ma, da, yb, mb, db] = [part('year', a), part('month', a), part('day', a), part('year', b), part('month', b), part('day', b)];
  // Two-digit numbers one slip apart: a digit in common in its place, or the two digits swapped.
  const digitAgrees = (x: SQL, y: SQL) => {
    const [tx, ux, ty, uy] = [sql`floor(${x} / 10)`, sql`mod(${x}::int, 10)`, sql`floor(${y} / 10)`, sql`mod(${y}::int, 10)`];
    return sql`(${tx} = ${ty} OR ${ux} = ${uy} OR (${tx} = ${uy} AND ${ux} = ${ty}))`;
  };
  return sql`(${a} IS NULL OR ${b} IS NULL OR abs(${a} - ${b}) <= 1 OR (${ma} = ${mb} AND ${da} = ${db})
    OR (${ya} = ${yb} AND ((${ma} = ${db} AND ${da} = ${mb}) OR (${ma} = ${mb} AND ${digitAgrees(da, db)})
                           OR (${da} = ${db} AND ${digitAgrees(ma, mb)}))))`;
};

/** A chunk's candidates: pairs [lower id, chunk patient], and the records of both sides. */
export interface ChunkCandidates {
  pairs: [number, number][];
  people: MatchPerson[];
}

/**
 * For each patient of the chunk, the patients with a lower id sharing a blocking key (every pair once over a run),
 * with their records read in the same statement: the lookup visits each candidate's row anyway, so reading the
 * record there spares a second visit by primary key. The chunk's own records come from one more statement.
 */
export async function candidatePairs(db: DbOrTx, ids: readonly number[], options: { datesMustAgree: boolean }): Promise<ChunkCandidates> {
  if (ids.length === 0) return { pairs: [], people: [] };
  const dates = options.datesMustAgree ? datesMayAgree(sql`b.date_of_birth`, sql`c.date_of_birth`) : sql`true`;
  // PostgreSQL's JIT compiles this statement anew in each chunk, for longer than it runs.
  await db.execute(sql`SET LOCAL jit = off`);
  const found = await rows<MatchPerson & { chunkId: number }>(
    db,
    sql`SELECT c.id AS "chunkId", o.*
          FROM patients AS c
          CROSS JOIN LATERAL (${candidatesOf(keysOf('c'), sql`b.id + 0 < c.id AND ${dates}`, personOf('b'))}) AS o
         WHERE c.id = ANY(${intArray(ids)}) AND c.replaced_by IS NULL`,
  );
  const pairs: [number, number][] = [];
  const people = new Map<number, MatchPerson>();
  for (const { chunkId, ...person } of found) {
    pairs.push([person.id, chunkId]);
    people.set(person.id, person);
  }
  const chunk = await readPeople(db, [...new Set(pairs.map(([, b]) => b))]);
  return { pairs, people: [...people.values(), ...chunk] };
}

/** Patients sharing a blocking key with one patient (any id but its own). */
export async function candidatesOfPatient(db: DbOrTx, id: number): Promise<number[]> {
  const found = await rows<{ id: number }>(
    db,
    sql`SELECT o.id FROM patients AS c
          CROSS JOIN LATERAL (${candidatesOf(keysOf('c'), sql`b.id + 0 <> c.id`)}) AS o
         WHERE c.id = ${id} AND c.replaced_by IS NULL`,
  );
  return found.map((r) => r.id);
}

export interface NewPerson {
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
}

/** A person not stored yet (the add-patient warning): their phonetic codes and the patients sharing a blocking key. */
export async function candidatesOfNew(db: DbOrTx, p: NewPerson): Promise<{ codes: { first: string[]; last: string[] }; ids: number[] }> {
  const dob = p.dateOfBirth ? sql`${p.dateOfBirth}::date` : sql`NULL::date`;
  const [codes] = await rows<{ first: string[]; last: string[] }>(
    db,
    sql`SELECT ARRAY[coalesce(nhr_dmetaphone(nhr_norm(${p.firstName})), ''), coalesce(nhr_dmetaphone_alt(nhr_norm(${p.firstName})), '')] AS first,
               ARRAY[coalesce(nhr_dmetaphone(nhr_norm(${p.lastName})), ''), coalesce(nhr_dmetaphone_alt(nhr_norm(${p.lastName})), '')] AS last`,
  );
  const found = await rows<{ id: number }>(
    db,
    candidatesOf(sql`nhr_match_keys(nhr_norm(${p.firstName}), nhr_norm(${p.lastName}), ${dob})`, sql`true`),
  );
  return { codes: codes!, ids: found.map((r) => r.id) };
}

export interface ScoredPair {
  a: number;
  b: number;
  score: number;
  band: MatchBand;
  reasons: unknown;
}

/**
 * Stores the pairs found: new ones open; open ones rescored; decided ones (different, skipped, same) untouched, so a
 * pair someone judged is never proposed again. Then drops open pairs of `stale` that were not found this time.
 */
export async function keepPairs(
  db: DbOrTx,
  pairs: readonly ScoredPair[],
  now: Date,
  stale: { patientB: readonly number[] } | { patient: number },
): Promise<void> {
  if (pairs.length > 0) {
    await db.execute(sql`
      INSERT INTO duplicate_pairs (patient_a, patient_b, score, band, reasons, status, found_at, scored_at)
      SELECT a, b, score, band, reasons::jsonb, 'open', ${now}, ${now}
        FROM unnest(${intArray(pairs.map((p) => p.a))}, ${intArray(pairs.map((p) => p.b))},
                    ${sql`${`{${pairs.map((p) => p.score).join(',')}}`}::real[]`}, ${textArray(pairs.map((p) => p.band))},
                    ${textArray(pairs.map((p) => JSON.stringify(p.reasons)))}) AS n(a, b, score, band, reasons)
      ON CONFLICT (patient_a, patient_b) DO UPDATE
         SET score = excluded.score, band = excluded.band, reasons = excluded.reasons, scored_at = excluded.scored_at
       WHERE duplicate_pairs.status = 'open'`);
  }
  const kept = sql`(patient_a, patient_b) NOT IN (SELECT * FROM unnest(${intArray(pairs.map((p) => p.a))}, ${intArray(pairs.map((p) => p.b))}))`;
  const whose =
    'patient' in stale
      ? sql`(patient_a = ${stale.patient} OR patient_b = ${stale.patient})`
      : sql`patient_b = ANY(${intArray(stale.patientB)})`;
  await db.execute(sql`DELETE FROM duplicate_pairs WHERE status = 'open' AND ${whose} AND ${kept}`);
}
