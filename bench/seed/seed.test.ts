// The synthetic data: deterministic for a seed, valid, and loadable on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { isValidNcNumber } from '../../src/contracts/nc-number';
import { ageOn } from '../../src/contracts/calendar';
import { createTestDatabase, type TestDatabase } from '../../src/server/test/test-database';
import { clinicalRows, emptyClinicalRows } from '../generator/clinical';
import { PatientGenerator } from '../generator/people';
import { seedPatients } from './seed-patients';

const AS_OF = '2025-06-01';

describe('patient generator', () => {
  const generate = (seed: number, n: number) => {
    const g = new PatientGenerator({ seed, asOf: AS_OF });
    const clinical = emptyClinicalRows();
    const patients = Array.from({ length: n }, (_, i) => {
      const p = g.patient(i, i + 1);
      clinicalRows(p, seed, AS_OF, clinical);
      return p;
    });
    return { patients, clinical };
  };

  it('gives the same patients and clinical rows for the same seed, and others for another seed', () => {
    expect(generate(3, 300)).toEqual(generate(3, 300));
    const other = generate(4, 300);
    expect(other.patients.map((p) => p.idNumber)).not.toEqual(generate(3, 300).patients.map((p) => p.idNumber));
  });

  it('makes plausible Namibian patients: valid unique NC numbers, ages 0-100, addresses "street, town, region"', () => {
    const { patients, clinical } = generate(11, 3000);
    expect(new Set(patients.map((p) => p.idNumber)).size).toBe(3000);
    expect(patients.every((p) => isValidNcNumber(p.idNumber))).toBe(true);
    const ages = patients.map((p) => ageOn(p.dateOfBirth, AS_OF) ?? -1);
    expect(Math.min(...ages)).toBe(0);
    expect(Math.max(...ages)).toBeLessThanOrEqual(100);
    expect(ages.filter((age) => age < 20).length).toBeGreaterThan(900); // a young population
    expect(patients.every((p) => p.address.split(', ').length === 3)).toBe(true);
    expect(patients.some((p) => /[äöüéèëïßô]/i.test(p.firstName + p.lastName))).toBe(true);
    expect(patients.some((p) => p.lastName.includes('-'))).toBe(true);
    expect(patients.some((p) => p.firstName.includes(' '))).toBe(true);
    expect(new Set(patients.map((p) => p.sex))).toEqual(new Set(['Female', 'Male', 'Other']));
    const groups = new Set(patients.map((p) => p.group));
    expect(groups.size).toBe(6);
    // Clinical dates never precede birth.
    const born = new Map(patients.map((p) => [p.id, p.dateOfBirth]));
    for (const row of clinical.diagnoses) expect(String(row[6]) >= born.get(Number(row[0]))!).toBe(true);
    expect(clinical.vaccines.length).toBeGreaterThan(1000);
    // Most entries coded from the catalogues, some free text; laboratory results with every kind of flag.
    const codedShare = clinical.medications.filter((r) => r[2] !== null).length / clinical.medications.length;
    expect(codedShare).toBeGreaterThan(0.75);
    expect(codedShare).toBeLessThan(0.95);
    expect(clinical.lab_results.length).toBeGreaterThan(1000);
    expect(new Set(clinical.lab_results.map((r) => r[12]))).toEqual(new Set([null, 'L', 'H', 'LL', 'HH']));
  });
});

describe('seeding a database', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.dispose();
  });
  const one = async <T>(query: SQL): Promise<T> => ((await database.handle.db.execute(query)) as unknown as { rows: T[] }).rows[0]!;
  const digest = () =>
    one<{ patients: string; clinical: string }>(sql`SELECT
      (SELECT md5(string_agg(concat_ws('|', id, first_name, last_name, date_of_birth, sex, id_number, contact_number, address, next_of_kin, next_of_kin_contact), ',' ORDER BY id)) FROM patients) AS patients,
      (SELECT md5(string_agg(concat_ws('|', patient_id, condition, status, diagnosed_date, resolved_date), ',' ORDER BY patient_id, id)) FROM diagnoses)
      || (SELECT md5(string_agg(concat_ws('|', patient_id, vaccine, date, dose), ',' ORDER BY patient_id, id)) FROM vaccines) AS clinical`);

  it('loads the same data twice for the same seed, with the search index built', async () => {
    const options = { patients: 250, seed: 5, asOf: AS_OF };
    const report = await seedPatients(database.handle, database.url, options);
    expect(report.patients).toBe(250);
    const first = await digest();
    const counts = await one<{ pairs: number; words: number; grams: number }>(
      sql`SELECT (SELECT count(*)::int FROM patient_name_pairs) AS pairs, (SELECT count(*)::int FROM name_words WHERE patients > 0) AS words,
                 (SELECT count(*)::int FROM name_word_deletes) AS grams`,
    );
    expect(counts.pairs).toBeGreaterThanOrEqual(250);
    expect(counts.words).toBeGreaterThan(100);
    expect(counts.grams).toBeGreaterThan(counts.words);

    await expect(seedPatients(database.handle, database.url, options)).rejects.toThrow(/already holds 250 patients/);
    await database.handle.db.execute(
      sql`TRUNCATE patients, diagnoses, appointments, allergies, medications, vaccines, lab_results, access_grants, vitals, patient_portal_credentials CASCADE`,
    );
    await seedPatients(database.handle, database.url, options);
    expect(await digest()).toEqual(first);

    // The indexes and triggers set aside for the load are back: a new patient enters the search index.
    await database.handle.db.execute(
      sql`INSERT INTO patients (first_name, last_name, sex, id_number) VALUES ('Zeta', 'Qoqoqo', 'Other', '99999999994')`,
    );
    expect((await one<{ n: number }>(sql`SELECT count(*)::int AS n FROM patient_name_pairs WHERE last_word = 'qoqoqo'`)).n).toBe(1);
    expect((await one<{ n: number }>(sql`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = 'patient_name_pairs_idx'`)).n).toBe(1);
    await expect(
      database.handle.db.execute(
        sql`INSERT INTO patients (first_name, last_name, sex, id_number) VALUES ('A', 'B', 'Other', '99999999994')`,
      ),
    ).rejects.toThrow();
  });
});
