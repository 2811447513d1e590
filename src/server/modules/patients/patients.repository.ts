// Patients: creation with a unique NC number, reading one patient (DESIGN.md §7, SPEC §3).
import { eq } from 'drizzle-orm';
import type { AddPatientInput, PatientDetails } from '../../../contracts/patients';
import { generateNcNumber, type RandomSource } from '../../../contracts/nc-number';
import type { DbOrTx } from '../../db/client';
import { patients } from '../../db/schema';

/** Attempts before giving up on finding an unused NC number (9 billion numbers: a second attempt is already rare). */
export const NC_ATTEMPTS = 10;

const details = {
  id: patients.id,
  firstName: patients.firstName,
  lastName: patients.lastName,
  dateOfBirth: patients.dateOfBirth,
  idNumber: patients.idNumber,
  sex: patients.sex,
  address: patients.address,
  contactNumber: patients.contactNumber,
  nextOfKin: patients.nextOfKin,
  nextOfKinContact: patients.nextOfKinContact,
};

export class NcNumberExhaustedError extends Error {
  constructor() {
    super(`No unused NC number after ${NC_ATTEMPTS} attempts`);
  }
}

/**
 * Inserts a patient under a freshly generated NC number. A number already in use is skipped with ON CONFLICT (the
 * surrounding transaction stays usable, so the audit row can follow) and another one is drawn.
 */
export async function insertPatient(tx: DbOrTx, input: AddPatientInput, random?: RandomSource): Promise<PatientDetails> {
  for (let attempt = 0; attempt < NC_ATTEMPTS; attempt++) {
    const [row] = await tx
      .insert(patients)
      .values({
        firstName: input.firstName,
        lastName: input.lastName,
        sex: input.sex,
        dateOfBirth: input.dateOfBirth === '' ? null : input.dateOfBirth,
        idNumber: generateNcNumber(random),
        contactNumber: input.contactNumber === '' ? null : input.contactNumber,
        address: input.address,
        nextOfKin: input.nextOfKin,
        nextOfKinContact: input.nextOfKinContact,
      })
      .onConflictDoNothing({ target: patients.idNumber })
      .returning(details);
    if (row) return row;
  }
  throw new NcNumberExhaustedError();
}

export async function getPatientById(db: DbOrTx, id: number): Promise<PatientDetails | null> {
  const [row] = await db.select(details).from(patients).where(eq(patients.id, id));
  return row ?? null;
}
