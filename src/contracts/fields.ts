// Field schemas shared by forms and routes. Messages are i18n keys ("validation:key"), translated by the client.
import { z } from 'zod';
import { NAME_MIN, PASSWORD_MIN } from './constants';
import { INVALID_CHARACTERS, isSafeText } from './safe-text';

const required = 'validation:required';

/** Any request string: no NUL, no unpaired surrogate (src/contracts/safe-text.ts). Start every input string here. */
export const safeString = (error?: string): z.ZodString =>
  z.string(error ? { error } : undefined).refine(isSafeText, { error: INVALID_CHARACTERS, abort: true });

/** A trimmed string; blank counts as missing. */
export const text = (max: number, missing: string = required): z.ZodString =>
  safeString(missing).trim().min(1, { error: missing }).max(max, { error: 'validation:tooLong' });

// Optional text, one helper per meaning of "left blank" (issue 15: the three `optionalText`s did opposite things).
/** Optional text stored as null: missing, null or blank is null (clinical entries' free text). */
export const textOrNull = (max: number, error = 'validation:textInvalid') =>
  safeString(error)
    .trim()
    .max(max, { error: 'validation:tooLong' })
    .nullish()
    .transform((v) => (v ? v : null));

/** Optional text kept as a string: missing or null is '' (SPEC §5 Add Patient's optional fields). */
export const textOrEmpty = (max: number) =>
  safeString()
    .trim()
    .max(max, { error: 'validation:tooLong' })
    .nullish()
    .transform((v) => v ?? '');

/** An optional filter: missing or blank means "no filter" (undefined). */
export const textOrNoFilter = (max: number) =>
  safeString()
    .trim()
    .max(max, { error: 'validation:tooLong' })
    .optional()
    .transform((v) => (v ? v : undefined));

export const personName = (minMessage: string): z.ZodString =>
  safeString(minMessage).trim().min(NAME_MIN, { error: minMessage }).max(100, { error: 'validation:tooLong' });

export const email = (message = 'validation:emailInvalid'): z.ZodString =>
  safeString(message).trim().max(254, { error: 'validation:tooLong' }).regex(z.regexes.email, { error: message });

export const newPassword = safeString('validation:passwordMin')
  .min(PASSWORD_MIN, { error: 'validation:passwordMin' })
  .max(200, { error: 'validation:tooLong' });
