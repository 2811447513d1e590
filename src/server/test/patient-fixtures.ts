// Patients for API tests, inserted directly (the record tests do not depend on the add-patient API).
import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryOne } from './sql';

export interface TestPatient {
  id: number;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  sex: string;
  idNumber: string;
}

/** An 11-digit NC number that is unique enough for one test database. */
export const randomNcNumber = (): string => `${randomInt(1, 10)}${String(randomInt(0, 1e9)).padStart(9, '0')}${randomInt(0, 10)}`;

export async function createPatient(db: Db, overrides: Partial<Omit<TestPatient, 'id'>> = {}): Promise<TestPatient> {
  const p = {
    firstName: 'Ndeshipanda',
    lastName: 'Hamutenya',
    dateOfBirth: '1980-03-14',
    sex: 'Female',
    idNumber: randomNcNumber(),
    ...overrides,
  };
  const row = await queryOne<{ id: number }>(
    db,
    sql`INSERT INTO patients (first_name, last_name, date_of_birth, sex, id_number, contact_number, address, next_of_kin, next_of_kin_contact)
        VALUES (${p.firstName}, ${p.lastName}, ${p.dateOfBirth}, ${p.sex}, ${p.idNumber}, '+264 81 555 0101',
                '12 Independence Avenue, Windhoek, Khomas', 'Tuyeni Hamutenya', '+264 81 555 0102')
        RETURNING id`,
  );
  return { id: row!.id, ...p };
}
