// Add patient with the duplicate warning and read one patient (SPEC §5, §7; DESIGN.md §7). Record-access grants
// live in the access module.
import type { AddPatientInput, PatientDetails, PatientSearchResult } from '../../../contracts/patients';
import type { RandomSource } from '../../../contracts/nc-number';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors/app-error';
import { fuzzySearch } from './fuzzy-search';
import { findBySameNames, getPatientById, insertPatient } from './patients.repository';
import { getSummaries } from './search.repository';

/** Score from which a fuzzy match with the same date of birth counts as a likely duplicate. */
export const DUPLICATE_MIN_SCORE = 0.8;
const DUPLICATE_LIMIT = 10;

/** Creates the patient with a generated NC number (any idNumber in the request was already dropped by the schema). */
export async function addPatient(tx: DbOrTx, input: AddPatientInput, random?: RandomSource): Promise<PatientDetails> {
  return insertPatient(tx, input, random);
}

/**
 * Patients the new one may duplicate: same date of birth and the same or closely matching names (either order,
 * typos, accents), or, without a date of birth, exactly the same names. Best first, at most 10.
 */
export async function findLikelyDuplicates(
  db: DbOrTx,
  input: Pick<AddPatientInput, 'firstName' | 'lastName' | 'dateOfBirth'>,
): Promise<PatientSearchResult[]> {
  if (!input.dateOfBirth) {
    const ids = await findBySameNames(db, input.firstName, input.lastName, DUPLICATE_LIMIT);
    return (await getSummaries(db, ids, null)).map(({ addressSimilarity: _unused, ...p }) => ({
      ...p,
      score: 1,
      matchReasons: ['search:reason.exact'],
    }));
  }
  const found = await fuzzySearch(
    db,
    { firstName: input.firstName, smartLastName: input.lastName },
    { from: input.dateOfBirth, to: input.dateOfBirth },
  );
  return found.filter((p) => (p.score ?? 0) >= DUPLICATE_MIN_SCORE).slice(0, DUPLICATE_LIMIT);
}

export async function getPatient(db: DbOrTx, id: number): Promise<PatientDetails> {
  const patient = await getPatientById(db, id);
  if (!patient) throw new AppError('PATIENT_NOT_FOUND', 'Patient not found');
  return patient;
}
