// The immunization schedule as data (issue 25 item 1, decision 044): the shipped file catalogues/immunization-
// schedule.json, and the one check every version passes, shipped or loaded by an administrator: the shape and
// references (contracts/immunization.ts) and every CVX code in the vaccines catalogue.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FieldIssue } from '../../../contracts/errors';
import { immunizationSchedule, type ImmunizationSchedule } from '../../../contracts/immunization';
import { CATALOGUE_DIR, readCatalogue } from '../codes/catalogue-files';

export const SCHEDULE_FILE = `${CATALOGUE_DIR}immunization-schedule.json`;

export type ScheduleCheck = { ok: true; schedule: ImmunizationSchedule; sha256: string } | { ok: false; issues: FieldIssue[] };

let cvxCodes: Set<string> | null = null;
const knownCvx = (): Set<string> => (cvxCodes ??= new Set(readCatalogue('vaccines').map((e) => e.entry.code)));

/** The SHA-256 of a schedule's canonical form (its JSON with the keys as written). */
export const scheduleSha256 = (schedule: ImmunizationSchedule): string =>
  createHash('sha256').update(JSON.stringify(schedule)).digest('hex');

/** Checks a schedule whole: its shape, its references and its vaccine codes. */
export function checkSchedule(value: unknown): ScheduleCheck {
  const parsed = immunizationSchedule.safeParse(value);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
  const issues: FieldIssue[] = [];
  parsed.data.series.forEach((s, i) =>
    s.cvx.forEach((code, j) => {
      if (!knownCvx().has(code)) issues.push({ path: `series.${i}.cvx.${j}`, message: 'validation:scheduleUnknownVaccine' });
    }),
  );
  return issues.length ? { ok: false, issues } : { ok: true, schedule: parsed.data, sha256: scheduleSha256(parsed.data) };
}

/** The shipped schedule, read and checked once; a broken file is reported by every use, never passed over. */
let shipped: ScheduleCheck | null = null;
export function shippedSchedule(file: string = SCHEDULE_FILE): ScheduleCheck {
  if (shipped && file === SCHEDULE_FILE) return shipped;
  let check: ScheduleCheck;
  try {
    check = checkSchedule(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    check = { ok: false, issues: [{ path: 'file', message: 'validation:scheduleUnreadable' }] };
  }
  if (file === SCHEDULE_FILE) shipped = check;
  return check;
}
