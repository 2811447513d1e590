// The immunization schedule applied to one patient (issue 25 item 2, decision 044), a pure function of the schedule,
// the patient, their vaccine rows and today. Like WHO SMART's decision tables it counts valid doses per series: a row
// is placed in a series by its CVX code, or by its free text matching one of the series' names; in each series the
// rows fill the doses in date order; a row given before the dose's earliest age or before the minimum interval after
// the previous valid dose is not counted; a dose whose latest age passed is missed (skipped for 'skip-if-missed'
// birth doses) and the next one is considered. The first outstanding dose of a series is upcoming, due or overdue;
// the later ones are upcoming after it. Every state carries its reason as a code and parameters.
import { CVX_SYSTEM } from '../../../contracts/code-systems';
import { addDays, addMonths, addYears, daysBetween } from '../../../contracts/calendar';
import {
  AGE_PATTERN,
  type DoseReason,
  type DoseStatus,
  type ImmunizationSchedule,
  type ImmunizationStatus,
  type ScheduleDose,
  type UncountedDose,
} from '../../../contracts/immunization';

/** A vaccine row as the schedule reads it (entered-in-error rows are never passed in). */
export interface VaccineDose {
  id: number;
  vaccine: string;
  code: string | null;
  codeSystem: string | null;
  date: string;
  dose: string;
}

export interface SchedulePatient {
  dateOfBirth: string | null;
  sex: string;
  /** An active pregnancy is recorded: the doses with condition 'pregnancy' are offered. */
  pregnant: boolean;
}

/** `iso` moved forward by an age or interval of the schedule ("6w", "9m", "15y"). */
export function addAge(iso: string, age: string): string {
  const m = AGE_PATTERN.exec(age);
  if (!m) throw new Error(`not an age: ${age}`);
  const n = Number(m[1]);
  switch (m[2]) {
    case 'd':
      return addDays(iso, n);
    case 'w':
      return addDays(iso, 7 * n);
    case 'm':
      return addMonths(iso, n);
    default:
      return addYears(iso, n);
  }
}

const fold = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

const later = (a: string, b: string): string => (a > b ? a : b);
const weeks = (from: string, to: string): number => Math.floor(daysBetween(from, to) / 7);

/** The series a row counts in: by its CVX code, or, uncoded, by its text; null when the schedule cannot place it. */
export function seriesOf(schedule: ImmunizationSchedule, row: VaccineDose): string | null {
  if (row.code !== null) {
    if (row.codeSystem !== CVX_SYSTEM) return null;
    return schedule.series.find((s) => s.cvx.includes(row.code!))?.id ?? null;
  }
  const text = fold(row.vaccine);
  return schedule.series.find((s) => s.names.some((n) => fold(n) === text))?.id ?? null;
}

/** A dose of a series not given yet, with the dates its state turns on. */
export interface OutstandingDose {
  dose: ScheduleDose;
  /** The day it is due: its recommended age, or the minimum interval after the previous valid dose if later. */
  due: string;
  /** Due only because of the interval after `previous`. */
  intervalBound: boolean;
  previous: { name: string; date: string; interval: string } | null;
  /** The day it is no longer given (its latest age), or null. */
  missedFrom: string | null;
  /** Only considered once every outstanding dose before it in the series is missed (from this day), or null. */
  afterMissedFrom: string | null;
}

export interface Placement {
  given: DoseStatus[];
  notMatched: UncountedDose[];
  notCounted: UncountedDose[];
  outstanding: SeriesOutstanding[];
}

/** A series' doses not given yet (those that apply to the patient), and the chain of those that may be current. */
export interface SeriesOutstanding {
  remaining: ScheduleDose[];
  /** The first outstanding doses in order; it continues past a dose only while that dose can be missed. */
  chain: OutstandingDose[];
}

const uncounted = (row: VaccineDose, reason: DoseReason): UncountedDose => ({
  vaccineId: row.id,
  vaccine: row.vaccine,
  date: row.date,
  dose: row.dose,
  reason,
});

/** Places a patient's rows in the schedule (independent of today). Without a date of birth nothing is placed. */
export function placeDoses(schedule: ImmunizationSchedule, patient: SchedulePatient, rows: readonly VaccineDose[]): Placement {
  const out: Placement = { given: [], notMatched: [], notCounted: [], outstanding: [] };
  const bySeries = new Map<string, VaccineDose[]>();
  for (const row of rows) {
    const series = seriesOf(schedule, row);
    if (series === null) {
      if (row.code === null) out.notMatched.push(uncounted(row, { code: 'NOT_MATCHED', params: {} }));
      continue;
    }
    bySeries.set(series, [...(bySeries.get(series) ?? []), row]);
  }
  const dob = patient.dateOfBirth;
  if (dob === null) return out;
  for (const series of schedule.series) {
    const doses = schedule.doses.filter((d) => d.series === series.id && (d.sex === undefined || d.sex === patient.sex.toLowerCase()));
    // A series none of whose doses apply (Td in pregnancy for a man): its rows are vaccines given, not counted here.
    if (doses.length === 0) continue;
    const seriesRows = [...(bySeries.get(series.id) ?? [])].sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id);
    let i = 0;
    let previous: { name: string; date: string } | null = null;
    const dueOf = (d: ScheduleDose) => {
      const byAge = addAge(dob, d.recommendedAge);
      const byInterval = previous && d.minInterval ? addAge(previous.date, d.minInterval) : null;
      const intervalBound = byInterval !== null && byInterval > byAge;
      return { due: intervalBound ? byInterval : byAge, intervalBound };
    };
    for (const row of seriesRows) {
      while (i < doses.length && doses[i]!.latestAge !== null && row.date >= addAge(dob, doses[i]!.latestAge!)) i++;
      const d = doses[i];
      if (!d) {
        out.notCounted.push(uncounted(row, { code: 'EXTRA_DOSE', params: { series: series.name } }));
        continue;
      }
      if (row.date < addAge(dob, d.earliestAge)) {
        out.notCounted.push(uncounted(row, { code: 'TOO_EARLY_FOR_AGE', params: { dose: d.name, age: d.earliestAge } }));
        continue;
      }
      if (previous && d.minInterval && row.date < addAge(previous.date, d.minInterval)) {
        out.notCounted.push(
          uncounted(row, { code: 'TOO_EARLY_AFTER_PREVIOUS', params: { dose: d.name, previous: previous.name, interval: d.minInterval } }),
        );
        continue;
      }
      const { due } = dueOf(d);
      const reason: DoseReason =
        row.date < addAge(due, schedule.overdueAfter)
          ? { code: 'GIVEN_ON_TIME', params: { date: row.date } }
          : { code: 'GIVEN_LATE', params: { date: row.date, weeks: weeks(due, row.date) } };
      out.given.push({ dose: d.id, name: d.name, series: series.id, state: 'given', date: row.date, vaccineId: row.id, reasons: [reason] });
      previous = { name: d.name, date: row.date };
      i++;
    }
    const remaining = doses.slice(i).filter((d) => d.condition !== 'pregnancy' || patient.pregnant);
    const chain: OutstandingDose[] = [];
    let afterMissedFrom: string | null = null;
    for (const d of remaining) {
      const { due, intervalBound } = dueOf(d);
      const missedFrom = d.latestAge === null ? null : addAge(dob, d.latestAge);
      chain.push({
        dose: d,
        due,
        intervalBound,
        previous: previous && d.minInterval ? { ...previous, interval: d.minInterval } : null,
        missedFrom,
        afterMissedFrom,
      });
      if (missedFrom === null) break;
      afterMissedFrom = afterMissedFrom === null ? missedFrom : later(afterMissedFrom, missedFrom);
    }
    if (chain.length) out.outstanding.push({ remaining, chain });
  }
  return out;
}

/** The state of a series' outstanding doses on `today`: missed ones, then the current one, then upcoming after it. */
function outstandingOn(schedule: ImmunizationSchedule, series: SeriesOutstanding, dob: string, today: string): DoseStatus[] {
  const { chain, remaining } = series;
  const status: DoseStatus[] = [];
  const base = (o: OutstandingDose, state: DoseStatus['state'], date: string, reasons: DoseReason[]): DoseStatus => ({
    dose: o.dose.id,
    name: o.dose.name,
    series: o.dose.series,
    state,
    date,
    vaccineId: null,
    reasons,
  });
  let current: OutstandingDose | null = null;
  for (const o of chain) {
    if (o.missedFrom !== null && today >= o.missedFrom) {
      const code = o.dose.catchUp === 'skip-if-missed' ? 'SKIPPED_WINDOW_CLOSED' : 'MISSED_PAST_LATEST';
      status.push(base(o, 'missed', o.due, [{ code, params: { age: o.dose.latestAge! } }]));
      continue;
    }
    current = o;
    break;
  }
  if (!current) return status;
  const o = current;
  const overdueFrom = addAge(o.due, schedule.overdueAfter);
  const catchUp: DoseReason[] = o.missedFrom ? [{ code: 'CATCH_UP_UNTIL', params: { date: o.missedFrom } }] : [];
  const prev = o.intervalBound && o.previous ? o.previous : null;
  if (today < o.due)
    status.push(
      base(o, 'upcoming', o.due, [
        prev
          ? {
              code: 'UPCOMING_AFTER_INTERVAL',
              params: { previous: prev.name, previousDate: prev.date, interval: prev.interval, date: o.due },
            }
          : { code: 'UPCOMING_AT_AGE', params: { age: o.dose.recommendedAge, date: o.due } },
      ]),
    );
  else if (today < overdueFrom)
    status.push(
      base(o, 'due', o.due, [
        prev
          ? { code: 'DUE_AFTER_INTERVAL', params: { previous: prev.name, previousDate: prev.date, interval: prev.interval } }
          : { code: 'DUE_AT_AGE', params: { age: o.dose.recommendedAge, date: o.due } },
      ]),
    );
  else status.push(base(o, 'overdue', o.due, [{ code: 'OVERDUE', params: { weeks: weeks(o.due, today), date: o.due } }, ...catchUp]));
  // The doses after the current one wait for it; their dates assume it is given on its due day (or today if later).
  let previous = later(o.due, today);
  for (const d of remaining.slice(remaining.indexOf(o.dose) + 1)) {
    const date = later(addAge(dob, d.recommendedAge), d.minInterval ? addAge(previous, d.minInterval) : previous);
    status.push(
      base({ ...o, dose: d }, 'upcoming', date, [{ code: 'UPCOMING_AFTER_PREVIOUS', params: { previous: status.at(-1)!.name } }]),
    );
    previous = date;
  }
  return status;
}

/** The patient's immunization status on `today`. */
export function immunizationStatusOf(
  schedule: ImmunizationSchedule,
  patient: SchedulePatient,
  rows: readonly VaccineDose[],
  today: string,
): ImmunizationStatus {
  const placed = placeDoses(schedule, patient, rows);
  const dob = patient.dateOfBirth;
  const outstanding = dob === null ? [] : placed.outstanding.flatMap((series) => outstandingOn(schedule, series, dob, today));
  const order = new Map(schedule.doses.map((d, i) => [d.id, i]));
  return {
    scheduleVersion: schedule.version,
    authority: schedule.authority,
    today,
    dateOfBirthKnown: patient.dateOfBirth !== null,
    doses: [...placed.given, ...outstanding].sort((a, b) => order.get(a.dose)! - order.get(b.dose)!),
    notMatched: placed.notMatched,
    notCounted: placed.notCounted,
  };
}
