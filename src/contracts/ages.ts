// Ages and calendar dates (SPEC §5, §9): ages 0-150, dates as ISO YYYY-MM-DD, "today" in Namibian time.
import { AGE_MAX } from './constants';
import { DATE_MAX_YEAR, DATE_MIN_YEAR } from './safe-text';

export const CLINIC_TIME_ZONE = 'Africa/Windhoek';
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Today's calendar date in the given time zone, as YYYY-MM-DD. */
export function todayIso(now: Date = new Date(), timeZone: string = CLINIC_TIME_ZONE): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
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

/** The date `years` calendar years before `iso` (29 February falls back to 28 February). */
export function minusYears(iso: string, years: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y - years, m - 1, d));
  if (date.getUTCMonth() !== m - 1) date.setUTCDate(0); // rolled over into March
  return date.toISOString().slice(0, 10);
}

function plusDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Age in completed years on `today`. */
export function ageOn(dateOfBirth: string, today: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

export interface DateRange {
  /** Earliest date of birth, inclusive. */
  from: string;
  /** Latest date of birth, inclusive. */
  to: string;
}

/** The dates of birth of people aged minAge..maxAge (completed years, inclusive) on `today`: an index-friendly range. */
export function dateOfBirthRangeForAges(minAge: number, maxAge: number, today: string): DateRange {
  const min = Math.max(0, Math.floor(minAge));
  const max = Math.min(AGE_MAX, Math.floor(maxAge));
  return { from: plusDays(minusYears(today, max + 1), 1), to: minusYears(today, min) };
}
