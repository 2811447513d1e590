// Patient search (SPEC §5, §7; DESIGN.md §8). Takes a transaction so the caller writes the SEARCH audit row with
// the same snapshot as the query's read.
import { dateOfBirthRangeForAges } from '../../../contracts/ages';
import { todayIso } from '../../../contracts/calendar';
import { SEARCH_RESULT_LIMIT, type PatientSearchInput, type PatientSearchResult } from '../../../contracts/patients';
import type { DbOrTx } from '../../db/client';
import { fuzzySearch } from './fuzzy-search';
import { findByIdNumber, findByNameAndDateOfBirth } from './search.repository';

export interface SearchOptions {
  /** Ages are counted on this day (YYYY-MM-DD); today in Namibia by default. */
  today?: string;
}

/** Runs a validated search (patientSearchInput): at most 50 patients, best first. */
export async function searchPatients(tx: DbOrTx, input: PatientSearchInput, options: SearchOptions = {}): Promise<PatientSearchResult[]> {
  switch (input.method) {
    case 'name-dob':
      return findByNameAndDateOfBirth(tx, input.lastName, input.dateOfBirth, SEARCH_RESULT_LIMIT);
    case 'id-number':
      return findByIdNumber(tx, input.idNumber);
    case 'fuzzy-name': {
      const born = dateOfBirthRangeForAges(input.ageRangeMin, input.ageRangeMax, options.today ?? todayIso());
      return fuzzySearch(tx, input, born);
    }
  }
}

/** What the audit row of a search records: the criteria (no free text beyond them) and the number of results. */
export function searchAuditSummary(input: PatientSearchInput, results: readonly PatientSearchResult[]): Record<string, unknown> {
  return { criteria: input, resultCount: results.length };
}
