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
 * A PIN anyone could guess (issue 12 follow-up): one digit six times, a run up or down (123456, 654321, 012345), or
 * a pair or triple of digits repeated (121212, 123123).
 */
export function isGuessablePin(pin: string): boolean {
  if (!/^\d{6}$/.test(pin)) return false;
  const steps = [...pin].slice(1).map((d, i) => Number(d) - Number(pin[i]));
  if (steps.every((s) => s === steps[0]) && Math.abs(steps[0]!) <= 1) return true;
  return pin === pin.slice(0, 2).repeat(3) || pin === pin.slice(0, 3).repeat(2);
}

/** Whether the PIN is the date of birth as six digits (DDMMYY, YYMMDD or MMDDYY): known to anyone holding the record. */
export function isBirthDatePin(pin: string, dateOfBirth: string): boolean {
  const m = /^\d{2}(\d{2})-(\d{2})-(\d{2})$/.exec(dateOfBirth);
  if (!m) return false;
  const [, yy, mm, dd] = m;
  return [`${dd}${mm}${yy}`, `${yy}${mm}${dd}`, `${mm}${dd}${yy}`].includes(pin);
}

/** Adding a passkey in the portal needs the PIN entered within this many minutes (issue 21 item 2, decision 031). */
export const PATIENT_PIN_FRESH_MINUTES = 10;

/** POST /api/patient-portal/reauth: the patient's PIN again, in a signed-in portal session. */
export const patientReauthInput = z.strictObject({ pin: pinField });
export type PatientReauthInput = z.infer<typeof patientReauthInput>;

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

/** The one answer for an unknown NC number, a wrong date of birth, a wrong PIN and a portal never activated. */
export const PATIENT_LOGIN_FAILED_MESSAGE = 'Invalid NC number, date of birth or PIN';
/** The one answer for every wrong, expired or used activation code (and wrong number or date). */
export const PATIENT_ACTIVATION_FAILED_MESSAGE = 'Invalid NC number, date of birth or activation code';
/** A portal sign-in from a browser that holds a live staff session (issue 10 item 1). */
export const PORTAL_FROM_STAFF_SESSION_MESSAGE = 'Sign out of the staff system before signing in to the patient portal';
export const PATIENT_LOGIN_SUCCESS_MESSAGE = 'Login successful';
