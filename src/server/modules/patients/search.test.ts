// Patient search on a small registry, through the real database (PGlite, or PostgreSQL with DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { addPatientInput, patientSearchInput, type AddPatientInput, type PatientSearchResult } from '../../../contracts/patients';
import type { Db } from '../../db/client';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { addPatient } from './patients.service';
import { searchPatients } from './search.service';

const TODAY = '2025-06-15';
let database: TestDatabase;
let db: Db;
const ids: Record<string, number> = {};

const people: [key: string, first: string, last: string, dob: string | null, address: string][] = [
  ['ndapewa', 'Ndapewa', 'Shikongo', '1990-05-10', '12 Independence Avenue, Windhoek, Khomas'],
  ['mariaNdapewa', 'Maria Ndapewa', 'Shikongo', '1988-02-01', 'Okandjengedi village, Oshakati, Oshana'],
  ['selma', 'Selma', 'Nangolo-Shikongo', '1992-11-11', 'Erf 220, Ondangwa, Oshana'],
  ['johannes', 'Johannes', 'van der Merwe', '1975-07-30', 'Erf 12, Keetmanshoop, //Karas'],
  ['jurgen', 'Jürgen', 'Müller', '1960-01-15', '5 Bismarck Street, Swakopmund, Erongo'],
  ['hendrik', 'Hendrik', 'Kotzé', '2001-03-03', '7 Church Street, Mariental, Hardap'],
  ['tjiuai', 'Uerikua', 'Katjiuongua', '1995-09-09', '3 Hosea Kutako Drive, Otjiwarongo, Otjozondjupa'],
  ['aune', 'Aune', '!Naruseb', '1983-04-04', 'Erf 9, Khorixas, Kunene'],
  ['noDob', 'Ndapewa', 'Shikongo', null, ''],
  ['otherNdapewa', 'Ndapewa', 'Amutenya', '1990-05-10', 'Erf 1, Eenhana, Ohangwena'],
];

const patient = (first: string, last: string, dob: string | null, address = ''): AddPatientInput =>
  addPatientInput.parse({ firstName: first, lastName: last, sex: 'Female', dateOfBirth: dob ?? '', address });

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
  for (const [key, first, last, dob, address] of people) ids[key] = (await addPatient(db, patient(first, last, dob, address))).id;
  for (let i = 0; i < 60; i++) await addPatient(db, patient('Maria', 'Amutenya', `198${i % 5}-0${1 + (i % 9)}-1${i % 10}`));
});
afterAll(async () => {
  await database?.dispose();
});

const search = (input: unknown): Promise<PatientSearchResult[]> => searchPatients(db, patientSearchInput.parse(input), { today: TODAY });
const fuzzy = (fullName: string, ageRangeMin = 0, ageRangeMax = 150, extra: object = {}) =>
  search({ method: 'fuzzy-name', fullName, ageRangeMin, ageRangeMax, ...extra });
const idsOf = (results: PatientSearchResult[]) => results.map((r) => r.id);
const one = async <T>(query: SQL): Promise<T> => ((await db.execute(query)) as unknown as { rows: T[] }).rows[0]!;

describe('name-dob search', () => {
  it('finds the patient by last name and date of birth, ignoring case, accents and spaces', async () => {
    expect(idsOf(await search({ method: 'name-dob', lastName: 'Shikongo', dateOfBirth: '1990-05-10' }))).toEqual([ids.ndapewa]);
    expect(idsOf(await search({ method: 'name-dob', lastName: 'VANDERMERWE', dateOfBirth: '1975-07-30' }))).toEqual([ids.johannes]);
    expect(idsOf(await search({ method: 'name-dob', lastName: 'muller', dateOfBirth: '1960-01-15' }))).toEqual([ids.jurgen]);
    expect(idsOf(await search({ method: 'name-dob', lastName: 'Naruseb', dateOfBirth: '1983-04-04' }))).toEqual([ids.aune]);
  });

  it('finds nobody with another date of birth, and returns the SPEC fields only', async () => {
    expect(await search({ method: 'name-dob', lastName: 'Shikongo', dateOfBirth: '1990-05-11' })).toEqual([]);
    const [found] = await search({ method: 'name-dob', lastName: 'Kotze', dateOfBirth: '2001-03-03' });
    expect(Object.keys(found!).sort()).toEqual(['address', 'dateOfBirth', 'firstName', 'id', 'idNumber', 'lastName', 'sex']);
    expect(found).toMatchObject({ firstName: 'Hendrik', lastName: 'Kotzé', dateOfBirth: '2001-03-03', sex: 'Female' });
  });
});

describe('id-number search', () => {
  it('finds the patient by NC number and nobody for an unknown one', async () => {
    const nc = (await one<{ nc: string }>(sql`SELECT id_number AS nc FROM patients WHERE id = ${ids.hendrik}`)).nc;
    expect(idsOf(await search({ method: 'id-number', idNumber: nc }))).toEqual([ids.hendrik]);
    expect(await search({ method: 'id-number', idNumber: '12345678903' })).toEqual([]);
  });
});

describe('fuzzy search', () => {
  it('finds the exact name first, then the patient whose longer first name contains it', async () => {
    const results = await fuzzy('Ndapewa Shikongo');
    expect(results[0]).toMatchObject({ id: ids.ndapewa, score: 1, matchReasons: ['search:reason.exact'] });
    const partial = results.find((r) => r.id === ids.mariaNdapewa);
    expect(partial?.matchReasons).toContain('search:reason.partOfName');
    expect(partial!.score!).toBeLessThan(1);
  });

  it('finds misspelled names: one typo, two typos, swapped letters', async () => {
    for (const name of ['Ndapewa Shikonga', 'Ndapewa Shikonyga', 'Ndapwea Shikongo', 'Ndapeva Shiknogo', 'Uerikua Katjiongua']) {
      const [best] = await fuzzy(name);
      expect([ids.ndapewa, ids.tjiuai], name).toContain(best?.id);
      expect(best?.matchReasons, name).toContain('search:reason.typo');
    }
  });

  it('finds names in the other order and says so', async () => {
    const [best] = await fuzzy('Shikongo Ndapewa');
    expect(best).toMatchObject({ id: ids.ndapewa });
    expect(best?.matchReasons).toContain('search:reason.namesSwapped');
    const [fields] = await search({
      method: 'fuzzy-name',
      firstName: 'Merwe',
      smartLastName: 'Johannes',
      ageRangeMin: 0,
      ageRangeMax: 150,
    });
    expect(fields?.id).toBe(ids.johannes);
    expect(fields?.matchReasons).toContain('search:reason.namesSwapped');
  });

  it('finds names typed without accents or click letters, and with particles written together or apart', async () => {
    const [jurgen] = await fuzzy('Jurgen Muller');
    expect(jurgen).toMatchObject({ id: ids.jurgen, score: 1, matchReasons: ['search:reason.accents'] });
    expect((await fuzzy('Hendrik Kotze'))[0]?.id).toBe(ids.hendrik);
    expect((await fuzzy('Aune Naruseb'))[0]?.id).toBe(ids.aune);
    expect((await fuzzy('Johannes Vandermerwe'))[0]?.id).toBe(ids.johannes);
    expect((await fuzzy('Johannes van der Merwe'))[0]?.id).toBe(ids.johannes);
  });

  it('finds partial names: the start of a name, one part of a double-barrelled name', async () => {
    const prefix = await fuzzy('Nda Shikongo');
    expect(idsOf(prefix)).toContain(ids.ndapewa);
    expect(prefix.find((r) => r.id === ids.ndapewa)?.matchReasons).toContain('search:reason.prefix');
    expect(idsOf(await fuzzy('Ndapewa Shik'))).toContain(ids.ndapewa);
    expect(idsOf(await fuzzy('Selma Shikongo'))).toContain(ids.selma);
  });

  it('filters by age range (translated to dates of birth) and leaves out patients without a birth date', async () => {
    // Ndapewa Shikongo is 35 on 2025-06-15.
    expect(idsOf(await fuzzy('Ndapewa Shikongo', 35, 35))).toContain(ids.ndapewa);
    expect(idsOf(await fuzzy('Ndapewa Shikongo', 36, 150))).not.toContain(ids.ndapewa);
    expect(idsOf(await fuzzy('Ndapewa Shikongo', 0, 34))).not.toContain(ids.ndapewa);
    expect(idsOf(await fuzzy('Ndapewa Shikongo'))).not.toContain(ids.noDob);
  });

  it('filters by address when one is given, tolerating a typo, and searches by address alone', async () => {
    const oshakati = await fuzzy('Shikongo', 0, 150, { address: 'Oshakti' });
    expect(idsOf(oshakati)).toEqual([ids.mariaNdapewa]);
    expect(oshakati[0]?.matchReasons).toContain('search:reason.address');
    const alone = await search({ method: 'fuzzy-name', address: 'Swakopmund', ageRangeMin: 60, ageRangeMax: 70 });
    expect(idsOf(alone)).toEqual([ids.jurgen]);
    expect(await search({ method: 'fuzzy-name', address: 'Swakopmund', ageRangeMin: 0, ageRangeMax: 20 })).toEqual([]);
  });

  it('returns at most 50 results, best first, with scores between 0 and 1', async () => {
    const results = await fuzzy('Maria Amutenya', 30, 50);
    expect(results).toHaveLength(50);
    const scores = results.map((r) => r.score!);
    expect(scores.every((s) => s >= 0 && s <= 1)).toBe(true);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(results.every((r) => r.firstName === 'Maria' && r.lastName === 'Amutenya')).toBe(true);
  });

  it('is harmless with SQL and pattern metacharacters', async () => {
    for (const name of [
      "Shikongo' OR '1'='1",
      'Shi%ongo',
      'Shik_ngo',
      'Ndapewa); DROP TABLE patients; --',
      'Nd.* Sh[ik]+ongo',
      '\\x00 Shikongo',
    ]) {
      const results = await fuzzy(name);
      expect(results.length, name).toBeLessThanOrEqual(50);
    }
    expect(await search({ method: 'name-dob', lastName: "x' OR '1'='1", dateOfBirth: '1990-05-10' })).toEqual([]);
    expect((await one<{ n: number }>(sql`SELECT count(*)::int AS n FROM patients`)).n).toBe(people.length + 60);
  });

  it('keeps up with renamed, re-dated and deleted patients', async () => {
    const { id } = await addPatient(db, patient('Tuyeni', 'Haufiku', '2000-01-01'));
    expect(idsOf(await fuzzy('Tuyeni Haufiku'))).toEqual([id]);
    await db.execute(sql`UPDATE patients SET last_name = 'Hamutenya', date_of_birth = '2001-01-01' WHERE id = ${id}`);
    // Only the first name still matches: a weak, half-score result.
    expect((await fuzzy('Tuyeni Haufiku')).map((r) => [r.lastName, r.score])).toEqual([['Hamutenya', 0.5]]);
    expect(idsOf(await fuzzy('Tuyeni Hamutenya', 24, 24))).toEqual([id]);
    expect(await fuzzy('Tuyeni Hamutenya', 25, 25)).toEqual([]);
    await db.execute(sql`DELETE FROM patients WHERE id = ${id}`);
    expect(await fuzzy('Tuyeni Hamutenya')).toEqual([]);
  });
});
