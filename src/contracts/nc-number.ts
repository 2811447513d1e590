// NC number (DESIGN.md §7): 10 random digits (the first 1-9) and a Luhn check digit. Never derived from the
// date of birth, because the date of birth is the patient's second login credential.
import { NC_NUMBER_LENGTH } from './constants';

export const NC_NUMBER_MESSAGES = {
  length: 'validation:ncNumberLength', // 'NC number must be exactly 11 digits'
  digits: 'validation:ncNumberDigits', // 'NC number must contain only digits'
  checkDigit: 'validation:ncNumberCheckDigit', // a typing mistake: the form may warn, the search still runs
} as const;
export type NcNumberProblem = (typeof NC_NUMBER_MESSAGES)[keyof typeof NC_NUMBER_MESSAGES];

/** A source of uniform numbers in [0, 1). */
export type RandomSource = () => number;

const DIGITS = /^[0-9]+$/;

/** The Luhn check digit for a string of digits (the digit to append on the right). */
export function luhnCheckDigit(payload: string): number {
  let sum = 0;
  for (let i = 0; i < payload.length; i++) {
    // Walking from the right: the digit next to the check digit is doubled, then every second one.
    let d = payload.charCodeAt(payload.length - 1 - i) - 48;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Cryptographically strong by default (Web Crypto: both browser and Node); tests and seeds pass their own. */
const secureRandom: RandomSource = () => {
  const buf = new Uint32Array(1);
  globalThis.crypto.getRandomValues(buf);
  return buf[0]! / 2 ** 32;
};

export function generateNcNumber(random: RandomSource = secureRandom): string {
  let payload = String(1 + Math.floor(random() * 9));
  for (let i = 1; i < NC_NUMBER_LENGTH - 1; i++) payload += String(Math.floor(random() * 10));
  return payload + String(luhnCheckDigit(payload));
}

/** The first problem with a candidate NC number, as an i18n key, or null when it is valid. */
export function ncNumberProblem(value: string): NcNumberProblem | null {
  if (value.length !== NC_NUMBER_LENGTH) return NC_NUMBER_MESSAGES.length;
  if (!DIGITS.test(value)) return NC_NUMBER_MESSAGES.digits;
  if (luhnCheckDigit(value.slice(0, -1)) !== Number(value.slice(-1))) return NC_NUMBER_MESSAGES.checkDigit;
  return null;
}

export function isValidNcNumber(value: string): boolean {
  return ncNumberProblem(value) === null;
}
