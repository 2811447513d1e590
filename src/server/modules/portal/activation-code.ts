// Portal activation codes (docs/decisions/016-patient-portal-second-factor.md): 8 symbols from a 30-symbol alphabet
// without look-alikes, printed XXXX-XXXX, drawn from the operating system's CSPRNG.
import { randomInt } from 'node:crypto';
import { ACTIVATION_CODE_ALPHABET, ACTIVATION_CODE_LENGTH, normalizeActivationCode } from '../../../contracts/portal-login';
import { ACTIVATION_CODE_TTL_HOURS } from '../../../contracts/portal';

export const ACTIVATION_CODE_TTL_MS = ACTIVATION_CODE_TTL_HOURS * 60 * 60 * 1000;

/** A fresh code, normalized (8 capitals/digits, no dash): what is hashed. */
export function newActivationCode(): string {
  let code = '';
  for (let i = 0; i < ACTIVATION_CODE_LENGTH; i++) code += ACTIVATION_CODE_ALPHABET[randomInt(ACTIVATION_CODE_ALPHABET.length)];
  return code;
}

/** XXXX-XXXX, as printed on the slip. */
export function formatActivationCode(code: string): string {
  const c = normalizeActivationCode(code);
  return `${c.slice(0, 4)}-${c.slice(4)}`;
}
