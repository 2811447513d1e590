// Portal activation (decision 016): the new PIN's rules and POST /api/auth/patient-activate's body. Apart from
// portal-login.ts so that the sign-in page does not load the list of common PINs (issue 21 item 3).
import * as z from 'zod/mini';
import { isCommonPin } from './common-pins';
import { activationCodeField, dateOfBirthField, isBirthDatePin, isGuessablePin, ncNumberField, pinField } from './portal-login';

/**
 * A new PIN (activation): six digits that are not guessable (repeated, running, a repeated pair or triple) and not
 * one of the most common six-digit PINs (keypad patterns, mirrored halves, dates...).
 */
export const newPinField = pinField.check(
  z.refine((pin) => !isGuessablePin(pin), { error: 'validation:pinTooEasy' }),
  z.refine((pin) => isGuessablePin(pin) || !isCommonPin(pin), { error: 'validation:pinTooCommon' }),
);

/** POST /api/auth/patient-activate: the first sign-in, with the code from the clinic's slip and the new PIN. */
export const patientActivateInput = z
  .strictObject({
    ncNumber: ncNumberField,
    dateOfBirth: dateOfBirthField,
    activationCode: activationCodeField,
    pin: newPinField,
    /**
     * The PIN in use until now (issue 21 item 1, decision 031): a code issued for a portal that already has a PIN
     * works only with it, unless a second staff member confirmed the reset.
     */
    currentPin: z.optional(pinField),
  })
  .check(z.refine((v) => !isBirthDatePin(v.pin, v.dateOfBirth), { error: 'validation:pinTooEasy', path: ['pin'] }));
export type PatientActivateInput = z.infer<typeof patientActivateInput>;
