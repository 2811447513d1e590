// Age ranges of the patient search (SPEC §5, §9): ages 0-150 as an index-friendly range of dates of birth. The
// calendar arithmetic is calendar.ts's.
import { addDays, addYears } from './calendar';
import { AGE_MAX } from './constants';

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
  return { from: addDays(addYears(today, -(max + 1)), 1), to: addYears(today, -min) };
}
