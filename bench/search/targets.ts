// The fixed query set of the search benchmark, drawn deterministically from the seeded patients, each with its
// known answers: the patients no search could tell apart from the target (same normalized names, born in the
// searched range; for prefix queries, every name with that start).
import { sql } from 'drizzle-orm';
import { dateOfBirthRangeForAges } from '../../src/contracts/ages';
import { ageOn } from '../../src/contracts/calendar';
import { generateNcNumber } from '../../src/contracts/nc-number';
import type { PatientSearchInput } from '../../src/contracts/patients';
import type { Db } from '../../src/server/db/client';
import { Rng } from '../generator/random';
import { dropDiacritics, letterCount, oneEdit, swapLetters, twoEdits } from './typos';

export const CATEGORIES = [
  'exact-name-dob',
  'exact-name-dob-common',
  'nc-found',
  'nc-not-found',
  'fuzzy-exact',
  'fuzzy-one-edit',
  'fuzzy-two-edits',
  'fuzzy-swapped-letters',
  'fuzzy-reversed-order',
  'fuzzy-no-diacritics',
  'fuzzy-prefix-3',
] as const;
export type Category = (typeof CATEGORIES)[number];

export interface Target {
  category: Category;
  input: PatientSearchInput;
  /** The patient the query was made from (null for a number that does not exist). */
  targetId: number | null;
  /** Every patient that answers the query equally well, the target included. */
  answers: number[];
}

interface SourcePatient {
  id: number;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  idNumber: string;
}

const execute = async <T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

export interface TargetOptions {
  perCategory: number;
  seed: number;
  today: string;
}

export async function buildTargets(db: Db, options: TargetOptions): Promise<Target[]> {
  const rng = new Rng(options.seed, 0x5ea4c);
  const [{ max } = { max: 0 }] = await execute<{ max: number }>(db, sql`SELECT coalesce(max(id), 0)::int AS max FROM patients`);
  if (max === 0) throw new Error('No patients: seed the database first (npm run seed).');
  const sample = async (n: number, where = sql`TRUE`): Promise<SourcePatient[]> => {
    const ids = Array.from({ length: n * 4 }, () => rng.int(1, max));
    const found = await execute<SourcePatient>(
      db,
      sql`SELECT id, first_name AS "firstName", last_name AS "lastName", date_of_birth::text AS "dateOfBirth", id_number AS "idNumber"
            FROM patients WHERE id = ANY(${`{${ids.join(',')}}`}::int[]) AND date_of_birth IS NOT NULL AND ${where} ORDER BY id`,
    );
    return shuffle(rng, found).slice(0, n);
  };
  const n = options.perCategory;
  const targets: Target[] = [];

  for (const p of await sample(n)) {
    targets.push({
      category: 'exact-name-dob',
      input: { method: 'name-dob', lastName: p.lastName, dateOfBirth: p.dateOfBirth },
      targetId: p.id,
      answers: [p.id],
    });
  }
  const common = await execute<SourcePatient>(
    db,
    sql`WITH top AS (SELECT last_name_norm FROM patients GROUP BY 1 ORDER BY count(*) DESC LIMIT 5)
        SELECT id, first_name AS "firstName", last_name AS "lastName", date_of_birth::text AS "dateOfBirth", id_number AS "idNumber"
          FROM patients WHERE last_name_norm IN (SELECT last_name_norm FROM top) AND date_of_birth IS NOT NULL
         ORDER BY md5(id::text || ${String(options.seed)}) LIMIT ${n}`,
  );
  for (const p of common) {
    targets.push({
      category: 'exact-name-dob-common',
      input: { method: 'name-dob', lastName: p.lastName, dateOfBirth: p.dateOfBirth },
      targetId: p.id,
      answers: [p.id],
    });
  }
  for (const p of await sample(n)) {
    targets.push({ category: 'nc-found', input: { method: 'id-number', idNumber: p.idNumber }, targetId: p.id, answers: [p.id] });
  }
  for (let i = 0; i < n; i++) {
    targets.push({
      category: 'nc-not-found',
      input: { method: 'id-number', idNumber: generateNcNumber(() => rng.next()) },
      targetId: null,
      answers: [],
    });
  }

  const fuzzy: [Category, (p: SourcePatient) => FuzzyQuery | null][] = [
    ['fuzzy-exact', (p) => ({ fullName: `${p.firstName} ${p.lastName}` })],
    ['fuzzy-one-edit', (p) => misspell(rng, p, oneEdit, 4)],
    ['fuzzy-two-edits', (p) => misspell(rng, p, twoEdits, 6)],
    ['fuzzy-swapped-letters', (p) => misspell(rng, p, (r, name) => swapLetters(r, name) ?? name, 4)],
    ['fuzzy-reversed-order', (p) => ({ fullName: `${p.lastName} ${p.firstName}` })],
    ['fuzzy-no-diacritics', (p) => ({ fullName: dropDiacritics(`${p.firstName} ${p.lastName}`) })],
    ['fuzzy-prefix-3', (p) => prefixQuery(rng, p)],
  ];
  for (const [category, make] of fuzzy) {
    const where = category === 'fuzzy-no-diacritics' ? sql`(first_name || last_name) <> nhr_unaccent(first_name || last_name)` : sql`TRUE`;
    const pool = category === 'fuzzy-no-diacritics' ? await sampleWithDiacritics(db, rng, n, max) : await sample(n * 2, where);
    let made = 0;
    for (const p of pool) {
      if (made === n) break;
      const query = make(p);
      if (!query || !(await isNonWordTypo(db, category, query, p))) continue;
      const age = ageOn(p.dateOfBirth, options.today);
      if (age === null) continue;
      const min = Math.max(0, age - rng.int(0, 5));
      const max = Math.min(150, age + rng.int(0, 5));
      const born = dateOfBirthRangeForAges(min, max, options.today);
      targets.push({
        category,
        input: { method: 'fuzzy-name', fullName: query.fullName, ageRangeMin: min, ageRangeMax: max },
        targetId: p.id,
        answers: await answersFor(db, p, query, born),
      });
      made++;
    }
  }
  return targets;
}

interface FuzzyQuery {
  fullName: string;
  /** For prefix queries: which name was shortened, and to what. */
  prefix?: { side: 'first' | 'last'; text: string };
  /** For misspellings: the misspelled name. */
  misspelled?: { side: 'first' | 'last'; text: string };
}

function misspell(rng: Rng, p: SourcePatient, edit: (rng: Rng, name: string) => string, minLetters: number): FuzzyQuery | null {
  const sides = rng.chance(0.5) ? (['last', 'first'] as const) : (['first', 'last'] as const);
  for (const side of sides) {
    const name = side === 'first' ? p.firstName : p.lastName;
    if (letterCount(name) < minLetters) continue;
    const text = edit(rng, name);
    if (text.toLowerCase() === name.toLowerCase()) continue;
    return { fullName: side === 'first' ? `${text} ${p.lastName}` : `${p.firstName} ${text}`, misspelled: { side, text } };
  }
  return null;
}

function prefixQuery(rng: Rng, p: SourcePatient): FuzzyQuery | null {
  const side = rng.chance(0.5) ? 'first' : 'last';
  const name = side === 'first' ? p.firstName : p.lastName;
  const letters = dropDiacritics(name).replace(/[^A-Za-z]/g, '');
  if (letters.length < 5) return null;
  const text = letters.slice(0, 3);
  return { fullName: side === 'first' ? `${text} ${p.lastName}` : `${p.firstName} ${text}`, prefix: { side, text: text.toLowerCase() } };
}

/** A misspelling that happens to be another real name is not a typo any search could undo; such queries are skipped. */
async function isNonWordTypo(db: Db, category: Category, query: FuzzyQuery, p: SourcePatient): Promise<boolean> {
  if (!query.misspelled)
    return category !== 'fuzzy-no-diacritics' || dropDiacritics(`${p.firstName}${p.lastName}`) !== `${p.firstName}${p.lastName}`;
  const [row] = await execute<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM name_words WHERE word = nhr_norm(${query.misspelled.text}) AND patients > 0`,
  );
  return (row?.n ?? 0) === 0;
}

async function answersFor(db: Db, p: SourcePatient, query: FuzzyQuery, born: { from: string; to: string }): Promise<number[]> {
  const range = sql`date_of_birth BETWEEN ${born.from}::date AND ${born.to}::date`;
  let where = sql`first_name_norm = nhr_norm(${p.firstName}) AND last_name_norm = nhr_norm(${p.lastName})`;
  if (query.prefix?.side === 'first') {
    where = sql`first_name_norm ~>=~ ${query.prefix.text} AND first_name_norm ~<~ ${`${query.prefix.text}~`} AND last_name_norm = nhr_norm(${p.lastName})`;
  } else if (query.prefix?.side === 'last') {
    where = sql`last_name_norm ~>=~ ${query.prefix.text} AND last_name_norm ~<~ ${`${query.prefix.text}~`} AND first_name_norm = nhr_norm(${p.firstName})`;
  }
  const found = await execute<{ id: number }>(db, sql`SELECT id FROM patients WHERE ${where} AND ${range}`);
  return found.map((r) => r.id);
}

async function sampleWithDiacritics(db: Db, rng: Rng, n: number, patients: number): Promise<SourcePatient[]> {
  // About 3% of names carry diacritics: sample enough pages for n of them, at least 1% of the table.
  const percent = Math.min(100, Math.max(1, (n * 100 * 100) / patients));
  const found = await execute<SourcePatient>(
    db,
    sql`SELECT id, first_name AS "firstName", last_name AS "lastName", date_of_birth::text AS "dateOfBirth", id_number AS "idNumber"
          FROM patients TABLESAMPLE SYSTEM (${percent}) REPEATABLE (${rng.int(1, 1_000_000)})
         WHERE date_of_birth IS NOT NULL AND first_name || last_name <> nhr_unaccent(first_name || last_name)
         ORDER BY id LIMIT ${n * 3}`,
  );
  return shuffle(rng, found);
}

function shuffle<T>(rng: Rng, items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
