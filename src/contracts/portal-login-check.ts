// The patient sign-in form's check by hand (issue 21 item 18): the same answers as portal-login.ts's
// patientLoginInput, field by field, without the schema library, which was most of the patient sign-in page's own
// script on a slow link. The server still validates with the schema; a test holds the two to the same messages.
import { NC_NUMBER_LENGTH } from './constants';
import { DATE_OUT_OF_RANGE, isYearInRange } from './safe-text';

export interface PatientLoginFields {
  ncNumber: string;
  dateOfBirth: string;
  pin: string;
}

export type PatientLoginCheck =
  { success: true; data: PatientLoginFields } | { success: false; errors: Partial<Record<keyof PatientLoginFields, string>> };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A real calendar date written YYYY-MM-DD, any year 0000-9999 (what the schema's ISO date accepts). */
export function isCalendarDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (mo === 2 && leap ? 29 : DAYS_IN_MONTH[mo - 1]!);
}

/** The first message for each field that breaks patientLoginInput's rules, or the values as the schema returns them. */
export function checkPatientLogin(input: PatientLoginFields): PatientLoginCheck {
  const errors: Partial<Record<keyof PatientLoginFields, string>> = {};
  const ncNumber = input.ncNumber.trim();
  if (!/^\d*$/.test(ncNumber)) errors.ncNumber = 'validation:ncNumberDigits';
  else if (ncNumber.length !== NC_NUMBER_LENGTH) errors.ncNumber = 'validation:ncNumberLength';
  if (!isCalendarDate(input.dateOfBirth)) errors.dateOfBirth = 'validation:dateInvalid';
  else if (!isYearInRange(input.dateOfBirth)) errors.dateOfBirth = DATE_OUT_OF_RANGE;
  if (!/^\d{6}$/.test(input.pin)) errors.pin = 'validation:pinFormat';
  if (Object.keys(errors).length > 0) return { success: false, errors };
  return { success: true, data: { ncNumber, dateOfBirth: input.dateOfBirth, pin: input.pin } };
}
