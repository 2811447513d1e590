// Add patient with the duplicate warning and read one patient (SPEC §5, §7; DESIGN.md §7). Record-access grants
// live in the access module.
import type { AddPatientInput, PatientDetails, PatientSearchResult, PatientSummary } from '../../../contracts/patients';
import type { RandomSource } from '../../../contracts/nc-number';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors/app-error';
import type { MatchAgreement, MatchReason as DuplicateReason } from '../../../contracts/duplicates';
import type { MatchReason } from '../../../contracts/patients';
import { DEFAULT_THRESHOLDS, SCORE_SCALE, type Thresholds } from '../duplicates/match-scoring';
import { likelyDuplicatesOf, type LikelyDuplicate } from '../duplicates/matcher';
import { getPatientById, insertPatient } from './patients.repository';
import { getSummaries } from './search.repository';

const DUPLICATE_LIMIT = 10;

/** Creates the patient with a generated NC number (any idNumber in the request was already dropped by the schema). */
export async function addPatient(tx: DbOrTx, input: AddPatientInput, random?: RandomSource): Promise<PatientDetails> {
  return insertPatient(tx, input, random);
}

const REASON_OF: Partial<Record<MatchAgreement, MatchReason>> = {
  exact: 'search:reason.exact',
  accents: 'search:reason.accents',
  typo: 'search:reason.typo',
  similar: 'search:reason.typo',
  part: 'search:reason.partOfName',
};

/** The matcher's reasons in the search's words (the add form shows them like search results). */
function searchReasons(reasons: readonly DuplicateReason[]): MatchReason[] {
  const out = new Set<MatchReason>();
  for (const r of reasons) {
    if (r.field === 'names') out.add('search:reason.namesSwapped');
    else if (r.field === 'place' && r.agreement === 'address') out.add('search:reason.address');
    else if ((r.field === 'firstName' || r.field === 'lastName') && r.agreement === 'soundsLike')
      out.add(r.field === 'firstName' ? 'search:reason.firstNameSoundsLike' : 'search:reason.lastNameSoundsLike');
    else if (r.field === 'firstName' || r.field === 'lastName') {
      const mapped = REASON_OF[r.agreement];
      if (mapped) out.add(mapped);
    }
  }
  if (out.size > 1) out.delete('search:reason.exact');
  return [...out];
}

const namesAgree = (reasons: readonly DuplicateReason[]) =>
  reasons.filter((r) => (r.field === 'firstName' || r.field === 'lastName') && (r.agreement === 'exact' || r.agreement === 'accents'))
    .length === 2;

/**
 * Patients the new one may duplicate: the matcher's score (decision 046) reaches "possible" (typos, sound-alikes,
 * swapped names, one half of a double name, a date of birth one digit off or with day and month swapped...). Without
 * a date of birth the score cannot reach it, so both names must agree exactly (accents aside). Best first, at most 10.
 */
export async function findLikelyDuplicates(
  db: DbOrTx,
  input: Pick<AddPatientInput, 'firstName' | 'lastName' | 'dateOfBirth'> &
    Partial<Pick<AddPatientInput, 'sex' | 'address' | 'contactNumber'>>,
  thresholds: Thresholds = DEFAULT_THRESHOLDS,
): Promise<PatientSearchResult[]> {
  const person = {
    firstName: input.firstName,
    lastName: input.lastName,
    dateOfBirth: input.dateOfBirth || null,
    sex: input.sex ?? '',
    address: input.address ?? '',
    contactNumber: input.contactNumber || null,
  };
  const found = (await likelyDuplicatesOf(db, person, person.dateOfBirth ? thresholds : { veryLikely: -Infinity, possible: -Infinity }))
    .filter((d) => person.dateOfBirth || namesAgree(d.reasons))
    .slice(0, DUPLICATE_LIMIT);
  return (await withSummaries(db, found)).map(({ patient, match }) => ({
    ...patient,
    score: Math.max(0, Math.min(1, match.score / SCORE_SCALE)),
    matchReasons: searchReasons(match.reasons),
  }));
}

/** Each scored record's summary; a record joined away is answered by the record it now belongs to, once (decision 048). */
async function withSummaries(db: DbOrTx, found: LikelyDuplicate[]): Promise<{ patient: PatientSummary; match: LikelyDuplicate }[]> {
  const summaries = new Map(
    (
      await getSummaries(
        db,
        found.map((d) => d.id),
        null,
      )
    ).map((p) => [p.foundId, p]),
  );
  const shown = new Set<number>();
  return found.flatMap((match) => {
    const p = summaries.get(match.id);
    if (!p || shown.has(p.id)) return [];
    shown.add(p.id);
    const { addressSimilarity: _unused, foundId: _found, ...patient } = p;
    return [{ patient, match }];
  });
}

/**
 * The stored patients the duplicate matcher scores against a person in one of its bands (FHIR `$match`, issue 26
 * item 8), best first, each with the matcher's band, score and reasons.
 */
export async function scoredMatchesOf(
  db: DbOrTx,
  person: Parameters<typeof likelyDuplicatesOf>[1],
  thresholds: Thresholds,
): Promise<{ patient: PatientSummary; match: LikelyDuplicate }[]> {
  return withSummaries(db, await likelyDuplicatesOf(db, person, thresholds));
}

export async function getPatient(db: DbOrTx, id: number): Promise<PatientDetails> {
  const patient = await getPatientById(db, id);
  if (!patient) throw new AppError('PATIENT_NOT_FOUND', 'Patient not found');
  return patient;
}
