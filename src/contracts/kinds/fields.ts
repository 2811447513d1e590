// The field builders every record kind's input schema is made of (SPEC §5; DESIGN.md §9). Messages are i18n keys.
// Schemas are built from a clock (`now`) so the server's injectable clock decides what "in the future" means; the
// client builds them with the real clock.
import { z } from 'zod';
import { safeString } from '../fields';
import { DATE_WINDOW_YEARS, addYears, isIsoDate, todayIso } from '../calendar';

export type Now = () => Date;

const tooLong = { error: 'validation:tooLong' };
const dateInvalid = 'validation:dateInvalid';

/** Letters (any script), digits, whitespace and - ( ) / . and the apostrophe (Crohn's disease) only. */
export const CONDITION_PATTERN = /^[\p{L}\p{M}\p{N}\s\-()/.'’]+$/u;
/** HH:mm, 24-hour clock. */
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A required trimmed text: missing or blank gives `missing`. */
export const requiredText = (max: number, missing: string) =>
  safeString(missing).trim().min(1, { error: missing, abort: true }).max(max, tooLong);

/** A required choice: missing gives the SPEC message, anything else outside the list 'invalidChoice'. */
export const choice = <T extends readonly [string, ...string[]]>(values: T, missing: string) =>
  z.enum(values, {
    error: (issue) =>
      issue.input === undefined || (typeof issue.input === 'string' && issue.input.trim() === '') ? missing : 'validation:invalidChoice',
  });

/** Where a date may fall: 'past' records something that happened (not in the future); 'any' may be ahead too. */
export type DateWindow = 'past' | 'any';

function dateChecks(now: Now, window: DateWindow) {
  const today = (): string => todayIso(now());
  return {
    notFuture: (v: string | null | undefined) => window === 'any' || !v || v <= today(),
    notTooOld: (v: string | null | undefined) => !v || v >= addYears(today(), -DATE_WINDOW_YEARS),
    notTooFar: (v: string | null | undefined) => !v || v <= addYears(today(), DATE_WINDOW_YEARS),
  };
}

/** A required YYYY-MM-DD date within the last 100 years (and not in the future for 'past'; within 100 years ahead for 'any'). */
export function requiredDate(now: Now, missing: string, window: DateWindow) {
  const c = dateChecks(now, window);
  return z
    .string({ error: missing })
    .trim()
    .min(1, { error: missing, abort: true })
    .refine(isIsoDate, { error: dateInvalid, abort: true })
    .refine(c.notFuture, { error: 'validation:dateFuture' })
    .refine(c.notTooOld, { error: 'validation:dateTooOld' })
    .refine(c.notTooFar, { error: 'validation:dateTooFar' });
}

/** An optional date: missing, null or '' is null. */
export function optionalDate(now: Now, window: DateWindow) {
  const c = dateChecks(now, window);
  return z
    .string({ error: dateInvalid })
    .trim()
    .nullish()
    .refine((v) => !v || isIsoDate(v), { error: dateInvalid, abort: true })
    .refine(c.notFuture, { error: 'validation:dateFuture' })
    .refine(c.notTooOld, { error: 'validation:dateTooOld' })
    .refine(c.notTooFar, { error: 'validation:dateTooFar' })
    .transform((v) => (v ? v : null));
}

/** An optional time of day (HH:mm): missing or '' is null. */
export const optionalTime = () =>
  z
    .string({ error: 'validation:timeInvalid' })
    .trim()
    .nullish()
    .refine((v) => !v || TIME_PATTERN.test(v), { error: 'validation:timeInvalid' })
    .transform((v) => (v ? v : null));

/** An optional number within [min, max] (an integer when `integer`): missing or null is null. */
export const measure = (min: number, max: number, message: string, integer: boolean) => {
  const n = z.number({ error: message }).min(min, { error: message }).max(max, { error: message });
  return (integer ? n.int({ error: message }) : n).nullish().transform((v) => v ?? null);
};

/** `later` is not before `earlier` (either may be missing). */
export const notBefore = (later: string | null, earlier: string): boolean => !later || later >= earlier;

/** A date as the API sends it (YYYY-MM-DD). */
export const day = z.string();
export const optionalDay = day.nullable();
