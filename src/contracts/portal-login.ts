// Patient sign-in (SPEC §2 Patient login, §5, §7 POST /api/auth/patient-login).
// zod/mini keeps the patient sign-in page's JavaScript small (DESIGN.md §10); the server validates with the same schema.
import * as z from 'zod/mini';
import { NC_NUMBER_LENGTH } from './constants';
import { DATE_OUT_OF_RANGE, isYearInRange } from './safe-text';

/** NC number: exactly 11 digits (SPEC §5 'Defined but unused rules'). Surrounding spaces are ignored. */
export const ncNumberField = z
  .string({ error: 'validation:ncNumberLength' })
  .check(
    z.trim(),
    z.regex(/^\d*$/, { error: 'validation:ncNumberDigits' }),
    z.length(NC_NUMBER_LENGTH, { error: 'validation:ncNumberLength' }),
  );

/** A calendar date, YYYY-MM-DD. */
export const dateOfBirthField = z.iso.date({ error: 'validation:dateInvalid' }).check(z.refine(isYearInRange, { error: DATE_OUT_OF_RANGE }));

export const patientLoginInput = z.strictObject({
  ncNumber: ncNumberField,
  dateOfBirth: dateOfBirthField,
});
export type PatientLoginInput = z.infer<typeof patientLoginInput>;

/** The one answer for an unknown NC number and a wrong date of birth (DESIGN.md §5). */
export const PATIENT_LOGIN_FAILED_MESSAGE = 'Invalid NC number or date of birth';
export const PATIENT_LOGIN_SUCCESS_MESSAGE = 'Login successful';
