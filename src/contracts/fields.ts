// Field schemas shared by forms and routes. Messages are i18n keys ("validation:key"), translated by the client.
import { z } from 'zod';
import { NAME_MIN, PASSWORD_MIN } from './constants';

const required = 'validation:required';

/** A trimmed string; blank counts as missing. */
export const text = (max: number, missing: string = required): z.ZodString =>
  z.string({ error: missing }).trim().min(1, { error: missing }).max(max, { error: 'validation:tooLong' });

export const personName = (minMessage: string): z.ZodString =>
  z
    .string({ error: minMessage })
    .trim()
    .min(NAME_MIN, { error: minMessage })
    .max(100, { error: 'validation:tooLong' });

export const email = (message = 'validation:emailInvalid'): z.ZodString =>
  z
    .string({ error: message })
    .trim()
    .max(254, { error: 'validation:tooLong' })
    .regex(z.regexes.email, { error: message });

export const newPassword = z
  .string({ error: 'validation:passwordMin' })
  .min(PASSWORD_MIN, { error: 'validation:passwordMin' })
  .max(200, { error: 'validation:tooLong' });
