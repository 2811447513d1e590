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
export const dateOfBirthField = z.iso
  .date({ error: 'validation:dateInvalid' })
  .check(z.refine(isYearInRange, { error: DATE_OUT_OF_RANGE }));

/** The portal PIN (decision 016): exactly 6 digits. */
export const PIN_LENGTH = 6;
export const pinField = z.string({ error: 'validation:pinFormat' }).check(z.regex(/^\d{6}$/, { error: 'validation:pinFormat' }));

/**
 * The activation code's 30 symbols: digits and capitals without 0, 1, I, L, O and S, which are misread as one another
 * (decision 016). A code is 8 of them (about 39 bits), printed XXXX-XXXX.
 */
export const ACTIVATION_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRTUVWXYZ';
export const ACTIVATION_CODE_LENGTH = 8;

/** The code as typed: case, spaces and the dash do not matter; the value is the 8 symbols in capitals. */
export function normalizeActivationCode(value: string): string {
  return value.toUpperCase().replace(/[\s-]/g, '');
}
const activationCodePattern = new RegExp(`^[${ACTIVATION_CODE_ALPHABET}]{${ACTIVATION_CODE_LENGTH}}$`);
export const isActivationCode = (value: string): boolean => activationCodePattern.test(normalizeActivationCode(value));

export const activationCodeField = z
  .string({ error: 'validation:activationCodeFormat' })
  .check(
    z.maxLength(20, { error: 'validation:activationCodeFormat' }),
    z.refine(isActivationCode, { error: 'validation:activationCodeFormat' }),
  );

/** POST /api/auth/patient-login: SPEC's two fields and the PIN (decision 016). */
export const patientLoginInput = z.strictObject({
  ncNumber: ncNumberField,
  dateOfBirth: dateOfBirthField,
  pin: pinField,
});
export type PatientLoginInput = z.infer<typeof patientLoginInput>;

/** POST /api/auth/patient-activate: the first sign-in, with the code from the clinic's slip and the new PIN. */
export const patientActivateInput = z.strictObject({
  ncNumber: ncNumberField,
  dateOfBirth: dateOfBirthField,
  activationCode: activationCodeField,
  pin: pinField,
});
export type PatientActivateInput = z.infer<typeof patientActivateInput>;

/** The one answer for an unknown NC number, a wrong date of birth, a wrong PIN and a portal never activated. */
export const PATIENT_LOGIN_FAILED_MESSAGE = 'Invalid NC number, date of birth or PIN';
/** The one answer for every wrong, expired or used activation code (and wrong number or date). */
export const PATIENT_ACTIVATION_FAILED_MESSAGE = 'Invalid NC number, date of birth or activation code';
/** A portal sign-in from a browser that holds a live staff session (issue 10 item 1). */
export const PORTAL_FROM_STAFF_SESSION_MESSAGE = 'Sign out of the staff system before signing in to the patient portal';
export const PATIENT_LOGIN_SUCCESS_MESSAGE = 'Login successful';
