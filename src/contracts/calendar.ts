// Calendar dates (SPEC §5, §9), the one owner of date arithmetic on both sides: dates as ISO YYYY-MM-DD, "today"
// as a Namibian clinic sees it, ages in completed years. Pure functions that take `now` or `today`, so the client,
// the server and the tests agree on the clock.
import { DATE_MAX_YEAR, DATE_MIN_YEAR } from './safe-text';

export const CLINIC_TIME_ZONE = 'Africa/Windhoek';
/** SPEC §5: dates are within the last 100 years (and, for dates that record the past, not in the future). */
export const DATE_WINDOW_YEARS = 100;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** One formatter per time zone: making an Intl.DateTimeFormat costs far more than formatting with one. */
const DAY_FORMATS = new Map<string, Intl.DateTimeFormat>();

/** Today's calendar date in the given time zone (the clinic's by default), as YYYY-MM-DD. */
export function todayIso(now: Date = new Date(), timeZone: string = CLINIC_TIME_ZONE): string {
  let format = DAY_FORMATS.get(timeZone);
  // en-CA formats as YYYY-MM-DD.
  if (!format)
    DAY_FORMATS.set(timeZone, (format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  return format.format(now);
}

/** True for a real calendar date written as YYYY-MM-DD (no 2024-02-30) in DATE_MIN_YEAR..DATE_MAX_YEAR. */
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < DATE_MIN_YEAR || y > DATE_MAX_YEAR) return false;
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** `iso` moved by whole days (negative: back). */
export function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** `iso` moved by whole calendar years (negative: back; 29 February falls back to 28 February). */
export function addYears(iso: string, years: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y + years, m - 1, d));
  if (date.getUTCMonth() !== m - 1) date.setUTCDate(0); // rolled over into March
  return date.toISOString().slice(0, 10);
}

/** `iso` moved by whole calendar months (negative: back; a day the month lacks falls back to its last day). */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1 + months, d));
  if (date.getUTCMonth() !== (((m - 1 + months) % 12) + 12) % 12) date.setUTCDate(0); // rolled over into the next month
  return date.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Age in completed years on `today`; null without a (valid, not future) date of birth. */
export function ageOn(dateOfBirth: string | null, today: string): number | null {
  if (!dateOfBirth || !isIsoDate(dateOfBirth)) return null;
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  const age = ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
  return age >= 0 ? age : null;
}
