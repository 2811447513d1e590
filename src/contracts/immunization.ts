// Immunizations due and overdue (issue 25 items 1-3, decision 044): the schedule file's shape (catalogues/
// immunization-schedule.json, structured like WHO SMART immunization decision tables), a patient's status with a
// reason per dose as a code and parameters (the client renders them in en/af/ng), and the defaulter list.
import { z } from 'zod';
import { safeString, text } from './fields';
import { isIsoDate } from './calendar';

/** An age or interval: a whole number of days, weeks, months or years ("0d", "6w", "9m", "15y"). */
export const AGE_PATTERN = /^(\d{1,3})([dwmy])$/;
const age = z.string().regex(AGE_PATTERN, { error: 'validation:scheduleAge' });
const id = z.string().regex(/^[A-Z][A-Z0-9_-]{0,15}$/, { error: 'validation:scheduleId' });
const line = (max: number) => text(max);

/** What happens to a dose not given by its latest age: still given until then, or skipped (the series goes on). */
export const CATCH_UP_RULES = ['until-latest', 'skip-if-missed'] as const;

export const scheduleSource = z.strictObject({ id, title: line(300), url: line(300), licence: line(300) });
export const scheduleSeries = z.strictObject({
  id,
  name: line(100),
  /** The CVX codes that count as a dose of this series (catalogues/vaccines.tsv). */
  cvx: z.array(z.string().regex(/^\d{1,3}$/)).min(1),
  /** Free-text names a dose recorded without a code is placed by (case and punctuation ignored). */
  names: z.array(line(100)).min(1),
  /** Counted in the defaulter list (the childhood series). */
  tracked: z.boolean(),
  /** The WHO SMART decision table (IMMZ.D2.DT.*) the series follows. */
  decisionTable: line(100),
});
export const scheduleDose = z.strictObject({
  id,
  series: id,
  name: line(100),
  sex: z.enum(['female']).optional(),
  condition: z.enum(['pregnancy']).optional(),
  earliestAge: age,
  recommendedAge: age,
  /** The least time after the series' previous valid dose. */
  minInterval: age.nullable(),
  /** Not given from this age on (exclusive); null: no limit. */
  latestAge: age.nullable(),
  catchUp: z.enum(CATCH_UP_RULES),
  source: id,
  sourceNote: line(500),
});
export type ScheduleDose = z.infer<typeof scheduleDose>;

/** The schedule file, checked whole (ids unique, references resolve, ages in order); the server also checks CVX codes. */
export const immunizationSchedule = z
  .strictObject({
    format: z.literal('nhr-immunization-schedule/1'),
    version: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/, { error: 'validation:scheduleVersion' }),
    title: line(200),
    authority: line(500),
    overdueAfter: age,
    sources: z.array(scheduleSource).min(1).max(50),
    series: z.array(scheduleSeries).min(1).max(50),
    doses: z.array(scheduleDose).min(1).max(200),
  })
  .superRefine((s, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const unique = (list: { id: string }[], path: string) =>
      list.forEach((x, i) => list.findIndex((y) => y.id === x.id) !== i && issue([path, i, 'id'], 'validation:scheduleDuplicateId'));
    unique(s.sources, 'sources');
    unique(s.series, 'series');
    unique(s.doses, 'doses');
    s.doses.forEach((d, i) => {
      if (!s.series.some((x) => x.id === d.series)) issue(['doses', i, 'series'], 'validation:scheduleUnknownSeries');
      if (!s.sources.some((x) => x.id === d.source)) issue(['doses', i, 'source'], 'validation:scheduleUnknownSource');
      if (ageDays(d.earliestAge) > ageDays(d.recommendedAge)) issue(['doses', i, 'earliestAge'], 'validation:scheduleAgeOrder');
      if (d.latestAge !== null && ageDays(d.latestAge) <= ageDays(d.recommendedAge))
        issue(['doses', i, 'latestAge'], 'validation:scheduleAgeOrder');
    });
  });
export type ImmunizationSchedule = z.infer<typeof immunizationSchedule>;

/** An age's approximate length in days, for ordering checks only (the engine adds calendar months and years). */
export function ageDays(value: string): number {
  const m = AGE_PATTERN.exec(value);
  if (!m) return NaN;
  return Number(m[1]) * { d: 1, w: 7, m: 30.44, y: 365.25 }[m[2] as 'd' | 'w' | 'm' | 'y'];
}

// ---- A patient's status ----

export const DOSE_STATES = ['given', 'overdue', 'due', 'upcoming', 'missed'] as const;
export type DoseState = (typeof DOSE_STATES)[number];

/**
 * Why a dose is in its state; the client renders `immunization:reasons.<code>` with the params (dates as YYYY-MM-DD,
 * ages as "9m", dose names as the schedule's).
 */
export const REASON_CODES = [
  'GIVEN_ON_TIME', // { date }
  'GIVEN_LATE', // { date, weeks }: weeks after the date it was due
  'DUE_AT_AGE', // { age, date }: the recommended age was reached on date
  'DUE_AFTER_INTERVAL', // { previous, previousDate, interval }
  'OVERDUE', // { weeks, date }: due since date
  'CATCH_UP_UNTIL', // { date }: may still be given until the day before date
  'UPCOMING_AT_AGE', // { age, date }
  'UPCOMING_AFTER_INTERVAL', // { previous, previousDate, interval, date }
  'UPCOMING_AFTER_PREVIOUS', // { previous }
  'MISSED_PAST_LATEST', // { age }: not given from this age on
  'SKIPPED_WINDOW_CLOSED', // { age }: a birth dose not caught up; the series goes on
  'NOT_MATCHED', // {}: free text the schedule cannot place
  'TOO_EARLY_FOR_AGE', // { dose, age }: given before the dose's earliest age; not counted
  'TOO_EARLY_AFTER_PREVIOUS', // { dose, previous, interval }: given before the minimum interval; not counted
  'EXTRA_DOSE', // { series }: the series was complete
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

export const doseReason = z.object({ code: z.enum(REASON_CODES), params: z.record(z.string(), z.union([z.string(), z.number()])) });
export type DoseReason = z.infer<typeof doseReason>;

export const doseStatus = z.object({
  dose: z.string(),
  name: z.string(),
  series: z.string(),
  state: z.enum(DOSE_STATES),
  /** Given: the day it was given; otherwise the day it is (or was) due. */
  date: z.string(),
  /** The vaccine row that counts as this dose (given only). */
  vaccineId: z.number().int().nullable(),
  reasons: z.array(doseReason),
});
export type DoseStatus = z.infer<typeof doseStatus>;

/** A vaccine row the schedule does not count: free text it cannot place, a dose given too early, an extra dose. */
export const uncountedDose = z.object({
  vaccineId: z.number().int(),
  vaccine: z.string(),
  date: z.string(),
  dose: z.string(),
  reason: doseReason,
});
export type UncountedDose = z.infer<typeof uncountedDose>;

/** GET /api/patients/{id}/immunization-status and the portal's own. */
export const immunizationStatus = z.object({
  scheduleVersion: z.string(),
  authority: z.string(),
  today: z.string(),
  /** False without a date of birth: nothing can be placed by age, every row is listed as given or not matched. */
  dateOfBirthKnown: z.boolean(),
  doses: z.array(doseStatus),
  notMatched: z.array(uncountedDose),
  notCounted: z.array(uncountedDose),
});
export type ImmunizationStatus = z.infer<typeof immunizationStatus>;

// ---- Schedule versions ----

export const scheduleVersionRow = z.object({
  id: z.number().int(),
  version: z.string(),
  title: z.string(),
  sha256: z.string(),
  loadedAt: z.string().nullable(),
  loadedBy: z.string().nullable(),
  current: z.boolean(),
});
export type ScheduleVersionRow = z.infer<typeof scheduleVersionRow>;

// ---- The defaulter list ----

const day = (error: string) => safeString(error).refine(isIsoDate, { error });

/** GET /api/defaulters?facility=&from=&to=: overdue doses due from..to (inclusive, at most 366 days). */
export const defaultersQuery = z
  .strictObject({
    facility: text(200, 'validation:facilityRequired'),
    from: day('validation:dateInvalid'),
    to: day('validation:dateInvalid'),
    format: z.enum(['json', 'csv']).default('json'),
  })
  .refine((q) => q.from <= q.to, { error: 'validation:dateRangeOrder', path: ['to'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 366 * 86_400_000, { error: 'validation:dateRangeTooLong', path: ['to'] });
export type DefaultersQuery = z.output<typeof defaultersQuery>;

/** Most defaulters one list answers (the list says when there were more). */
export const DEFAULTERS_LIMIT = 2000;

export const defaulter = z.object({
  patientId: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: z.string().nullable(),
  contactNumber: z.string().nullable(),
  nextOfKin: z.string(),
  nextOfKinContact: z.string(),
  /** The last vaccine visit: its day and facility. */
  lastVisit: z.string(),
  lastFacility: z.string(),
  /** The overdue doses: schedule dose id, name and the day each was due. */
  overdue: z.array(z.object({ dose: z.string(), name: z.string(), dueDate: z.string() })),
});
export type Defaulter = z.infer<typeof defaulter>;

export const defaultersResponse = z.object({
  facility: z.string(),
  from: z.string(),
  to: z.string(),
  today: z.string(),
  scheduleVersion: z.string(),
  defaulters: z.array(defaulter),
  truncated: z.boolean(),
});
export type DefaultersResponse = z.infer<typeof defaultersResponse>;
