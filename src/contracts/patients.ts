// Patients (SPEC §3, §5, §7; DESIGN.md §4, §8): search input, add-patient input, access grant input, response shapes.
import { z } from 'zod';
import { AGE_MAX, AGE_MIN, NC_NUMBER_LENGTH } from './constants';
import { addYears, isIsoDate, todayIso } from './calendar';
import { NC_NUMBER_MESSAGES } from './nc-number';
import { safeString, textOrEmpty } from './fields';

export const SEXES = ['Male', 'Female', 'Other'] as const;
export type Sex = (typeof SEXES)[number];

export const SEARCH_METHODS = ['name-dob', 'id-number', 'fuzzy-name'] as const;
export type SearchMethod = (typeof SEARCH_METHODS)[number];
export const SEARCH_RESULT_LIMIT = 50;
export const NAME_MAX = 100;
export const ADDRESS_MAX = 200;

export const SEARCH_MESSAGES = {
  invalid: 'validation:searchInvalid', // 'Invalid search parameters for selected method'
  fieldRequired: 'validation:searchFieldRequired', // 'At least one search field is required'
  ageRange: 'validation:ageRange', // ages are numbers 0-150
  ageOrder: 'validation:ageRangeOrder', // 'Maximum age must be greater than or equal to minimum age'
} as const;

/** Why a fuzzy result matched; i18n keys in the "search" namespace. */
export const MATCH_REASONS = [
  'search:reason.exact',
  'search:reason.accents',
  'search:reason.typo',
  'search:reason.lastNameSoundsLike',
  'search:reason.firstNameSoundsLike',
  'search:reason.prefix',
  'search:reason.partOfName',
  'search:reason.namesSwapped',
  'search:reason.address',
] as const;
export type MatchReason = (typeof MATCH_REASONS)[number];

const hasLetterOrDigit = /[\p{L}\p{N}]/u;

/** A trimmed name-like search string: 1..max characters with at least one letter or digit. */
const searchText = (max: number) =>
  safeString(SEARCH_MESSAGES.invalid)
    .trim()
    .min(1, { error: SEARCH_MESSAGES.invalid, abort: true })
    .max(max, { error: 'validation:tooLong', abort: true })
    .regex(hasLetterOrDigit, { error: SEARCH_MESSAGES.invalid });

const isoDate = (message: string) => z.string({ error: message }).trim().refine(isIsoDate, { error: message });

// A number, or digits in a string (form fields); anything else (arrays, booleans, null) is refused rather than
// coerced: Number([]) is 0, which would silently search ages from 0.
const age = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
  z
    .number({ error: SEARCH_MESSAGES.ageRange })
    .refine(Number.isFinite, { error: SEARCH_MESSAGES.ageRange })
    // Whole years: 20.5 or 4e-200 is not an age anyone types (the hostile-input test sent the latter).
    .int({ error: SEARCH_MESSAGES.ageRange })
    .min(AGE_MIN, { error: SEARCH_MESSAGES.ageRange })
    .max(AGE_MAX, { error: SEARCH_MESSAGES.ageRange }),
);

export const nameDobSearchInput = z.object({
  method: z.literal('name-dob'),
  lastName: searchText(NAME_MAX),
  dateOfBirth: isoDate(SEARCH_MESSAGES.invalid),
});

export const idNumberSearchInput = z.object({
  method: z.literal('id-number'),
  idNumber: z
    .string({ error: NC_NUMBER_MESSAGES.length })
    .trim()
    .length(NC_NUMBER_LENGTH, { error: NC_NUMBER_MESSAGES.length })
    .regex(/^[0-9]+$/, { error: NC_NUMBER_MESSAGES.digits }),
});

export const fuzzySearchInput = z
  .object({
    method: z.literal('fuzzy-name'),
    /** SPEC §7: the client joins first name and smart last name with a space. */
    fullName: searchText(2 * NAME_MAX + 1).optional(),
    firstName: searchText(NAME_MAX).optional(),
    smartLastName: searchText(NAME_MAX).optional(),
    /** DESIGN.md §9: the client also sends the address/location field. */
    address: searchText(ADDRESS_MAX).optional(),
    ageRangeMin: age,
    ageRangeMax: age,
  })
  .refine((v) => Boolean(v.fullName ?? v.firstName ?? v.smartLastName ?? v.address), {
    error: SEARCH_MESSAGES.fieldRequired,
    path: ['fullName'],
  })
  .refine((v) => v.ageRangeMin <= v.ageRangeMax, { error: SEARCH_MESSAGES.ageOrder, path: ['ageRangeMax'] });

export const patientSearchInput = z.discriminatedUnion('method', [nameDobSearchInput, idNumberSearchInput, fuzzySearchInput], {
  error: SEARCH_MESSAGES.invalid,
});
export type PatientSearchInput = z.infer<typeof patientSearchInput>;
export type NameDobSearchInput = z.infer<typeof nameDobSearchInput>;
export type IdNumberSearchInput = z.infer<typeof idNumberSearchInput>;
export type FuzzySearchInput = z.infer<typeof fuzzySearchInput>;

const requiredName = (message: string) =>
  safeString(message).trim().min(1, { error: message }).max(NAME_MAX, { error: 'validation:tooLong' });

/** A date of birth: a real date, not in the future and within the last 150 years. */
export function isPlausibleDateOfBirth(value: string, today: string = todayIso()): boolean {
  return isIsoDate(value) && value <= today && value > addYears(today, -(AGE_MAX + 1));
}

/** SPEC §5 Add Patient. Unknown fields, idNumber included, are dropped: the server generates the NC number. */
export const addPatientInput = z.object({
  firstName: requiredName('validation:firstNameRequired'),
  lastName: requiredName('validation:lastNameRequired'),
  sex: z.enum(SEXES, { error: 'validation:sexRequired' }),
  dateOfBirth: textOrEmpty(10).refine((v) => v === '' || isPlausibleDateOfBirth(v), {
    error: 'validation:dateOfBirthInvalid',
  }),
  contactNumber: textOrEmpty(32),
  address: textOrEmpty(ADDRESS_MAX),
  nextOfKin: textOrEmpty(200),
  nextOfKinContact: textOrEmpty(32),
});
export type AddPatientInput = z.infer<typeof addPatientInput>;

// The record-access input (consent or a stated reason) is recordAccessInput in ./access.ts.

/** SPEC §7: the patient fields a search returns. */
export const patientSummary = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: z.string().nullable(),
  idNumber: z.string(),
  sex: z.string(),
  address: z.string(),
});
export type PatientSummary = z.infer<typeof patientSummary>;

/** A search result: fuzzy results also carry a score (0-1, best first) and why they matched. */
export const patientSearchResult = patientSummary.extend({
  score: z.number().min(0).max(1).optional(),
  matchReasons: z.array(z.enum(MATCH_REASONS)).optional(),
  /** Found by the NC number of a record joined into this one (decision 048): that number. */
  joinedFrom: z.object({ idNumber: z.string() }).optional(),
});
export type PatientSearchResult = z.infer<typeof patientSearchResult>;
export const patientSearchResults = z.array(patientSearchResult);

export const patientDetails = patientSummary.extend({
  contactNumber: z.string().nullable(),
  nextOfKin: z.string(),
  nextOfKinContact: z.string(),
});
export type PatientDetails = z.infer<typeof patientDetails>;
