// Adding patients (NC numbers, duplicates), through the real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { addPatientInput } from '../../../contracts/patients';
import { isValidNcNumber, luhnCheckDigit } from '../../../contracts/nc-number';
import type { Db } from '../../db/client';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { NC_ATTEMPTS, NcNumberExhaustedError } from './patients.repository';
import { addPatient, findLikelyDuplicates, getPatient } from './patients.service';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
});
afterAll(async () => {
  await database?.dispose();
});

const rows = async <T>(query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
const input = (overrides: Record<string, unknown> = {}) =>
  addPatientInput.parse({ firstName: 'Ndapewa', lastName: 'Shikongo', sex: 'Female', dateOfBirth: '1990-05-10', ...overrides });

describe('adding a patient', () => {
  it('stores the fields with a generated, valid NC number', async () => {
    const created = await addPatient(
      db,
      input({ idNumber: '11111111111', address: 'Erf 1, Oshakati, Oshana', nextOfKin: 'Maria Shikongo' }),
    );
    expect(created).toMatchObject({
      firstName: 'Ndapewa',
      lastName: 'Shikongo',
      sex: 'Female',
      dateOfBirth: '1990-05-10',
      address: 'Erf 1, Oshakati, Oshana',
      nextOfKin: 'Maria Shikongo',
      nextOfKinContact: '',
      contactNumber: null,
    });
    expect(created.idNumber).not.toBe('11111111111');
    expect(isValidNcNumber(created.idNumber)).toBe(true);
    expect(await getPatient(db, created.id)).toEqual(created);
  });

  it('draws another NC number when the first one is taken, inside the same transaction', async () => {
    const taken = (await addPatient(db, input({ firstName: 'Taimi' }))).idNumber;
    const free = '4000000000';
    // First draw reproduces the taken number, the second draw a free one.
    let calls = 0;
    const sequence = [...taken.slice(0, 10), ...free].map(Number);
    const random = () => {
      const d = sequence[calls]!;
      calls++;
      return calls % 10 === 1 ? (d - 1 + 0.5) / 9 : (d + 0.5) / 10;
    };
    const created = await db.transaction(async (tx) => {
      const p = await addPatient(tx, input({ firstName: 'Selma' }), random);
      await tx.execute(sql`SELECT 1`); // the transaction is still usable after the skipped conflict
      return p;
    });
    expect(calls).toBe(20);
    expect(created.idNumber).toBe(free + String(luhnCheckDigit(free)));
  });

  it('gives up with a clear error when every attempt collides', async () => {
    const taken = (await addPatient(db, input({ firstName: 'Aune' }))).idNumber;
    const repeat = [...taken.slice(0, 10)].map(Number);
    let calls = 0;
    const random = () => {
      const d = repeat[calls % 10]!;
      calls++;
      return calls % 10 === 1 ? (d - 1 + 0.5) / 9 : (d + 0.5) / 10;
    };
    await expect(addPatient(db, input({ firstName: 'Loide' }), random)).rejects.toBeInstanceOf(NcNumberExhaustedError);
    expect(calls).toBe(NC_ATTEMPTS * 10);
    expect(await rows(sql`SELECT id FROM patients WHERE first_name = 'Loide'`)).toEqual([]);
  });

  it('answers 404 for an unknown patient', async () => {
    await expect(getPatient(db, 999_999)).rejects.toMatchObject({ status: 404, code: 'PATIENT_NOT_FOUND' });
  });
});

describe('likely duplicates', () => {
  it('finds the same names and date of birth, in either order, misspelled or unaccented', async () => {
    const original = await addPatient(db, input({ firstName: 'Jürgen', lastName: 'Müller', dateOfBirth: '1960-01-15' }));
    for (const [firstName, lastName] of [
      ['Jürgen', 'Müller'],
      ['Jurgen', 'Muller'],
      ['Müller', 'Jürgen'],
      ['Jürgen', 'Mueller'],
      ['Jurgen', 'Müler'],
    ]) {
      const found = await findLikelyDuplicates(db, { firstName: firstName!, lastName: lastName!, dateOfBirth: '1960-01-15' });
      expect(
        found.map((p) => p.id),
        `${firstName} ${lastName}`,
      ).toEqual([original.id]);
    }
  });

  it('flags a date of birth one digit off (the matcher, decision 046), not another date of birth or a different person', async () => {
    expect(await findLikelyDuplicates(db, { firstName: 'Jürgen', lastName: 'Müller', dateOfBirth: '1960-01-16' })).toHaveLength(1);
    expect(await findLikelyDuplicates(db, { firstName: 'Jürgen', lastName: 'Müller', dateOfBirth: '1971-06-30' })).toEqual([]);
    expect(await findLikelyDuplicates(db, { firstName: 'Hans', lastName: 'Weber', dateOfBirth: '1960-01-15' })).toEqual([]);
  });

  it('without a date of birth, flags exactly the same names only', async () => {
    await addPatient(db, input({ firstName: 'Tangeni', lastName: 'Iipumbu', dateOfBirth: '' }));
    expect(await findLikelyDuplicates(db, { firstName: 'tangeni', lastName: 'IIPUMBU', dateOfBirth: '' })).toHaveLength(1);
    expect(await findLikelyDuplicates(db, { firstName: 'Tangeni', lastName: 'Iipumbo', dateOfBirth: '' })).toEqual([]);
  });
});
