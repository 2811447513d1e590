// Each rule of the immunization schedule on the shipped file (issue 25 item 2, decision 044): on time, early (too
// young, too soon after the previous dose), late, catch-up, the minimum interval, a birth dose's closed window, a dose
// recorded as free text (placed by its name, or listed as not matched), sex-specific and pregnancy doses.
import { describe, expect, it } from 'vitest';
import { CVX_SYSTEM } from '../../../contracts/code-systems';
import { addDays } from '../../../contracts/calendar';
import type { DoseStatus, ImmunizationSchedule } from '../../../contracts/immunization';
import { checkSchedule, shippedSchedule } from './schedule-file';
import { immunizationStatusOf, type SchedulePatient, type VaccineDose } from './schedule-engine';

const shipped = shippedSchedule();
if (!shipped.ok) throw new Error(JSON.stringify(shipped.issues));
const schedule: ImmunizationSchedule = shipped.schedule;

const DOB = '2026-01-05';
const girl: SchedulePatient = { dateOfBirth: DOB, sex: 'Female', pregnant: false };
const boy: SchedulePatient = { dateOfBirth: DOB, sex: 'Male', pregnant: false };
let nextId = 1;
const coded = (cvx: string, date: string): VaccineDose => ({
  id: nextId++,
  vaccine: `CVX ${cvx}`,
  code: cvx,
  codeSystem: CVX_SYSTEM,
  date,
  dose: '1',
});
const text = (vaccine: string, date: string): VaccineDose => ({ id: nextId++, vaccine, code: null, codeSystem: null, date, dose: '1' });
const day = (days: number) => addDays(DOB, days);

const statusOn = (today: string, rows: VaccineDose[], patient: SchedulePatient = boy) =>
  immunizationStatusOf(schedule, patient, rows, today);
const dose = (s: { doses: DoseStatus[] }, id: string): DoseStatus | undefined => s.doses.find((d) => d.dose === id);

describe('the shipped schedule', () => {
  it('passes its own check, names the Child Health Passport as the authority and gives every dose a source', () => {
    expect(schedule.authority).toMatch(/Child Health Passport/);
    for (const d of schedule.doses) expect(schedule.sources.map((s) => s.id)).toContain(d.source);
    expect(schedule.doses.map((d) => d.id)).toEqual(
      expect.arrayContaining(['BCG', 'OPV0', 'HEPB_BD', 'OPV1', 'PENTA1', 'PCV1', 'ROTA1', 'IPV1', 'MR1', 'MR2', 'HPV1', 'TD1']),
    );
  });

  it('refuses a version with an unknown series, a vaccine code the catalogue lacks, or ages out of order', () => {
    const broken = structuredClone(schedule);
    broken.doses[0]!.series = 'NOPE';
    broken.series[0]!.cvx = ['999'];
    broken.doses[1]!.earliestAge = '20y';
    const check = checkSchedule(broken);
    expect(check.ok).toBe(false);
    if (!check.ok)
      expect(check.issues.map((i) => i.message)).toEqual(
        expect.arrayContaining(['validation:scheduleUnknownSeries', 'validation:scheduleAgeOrder']),
      );
    const unknownCode = structuredClone(schedule);
    unknownCode.series[0]!.cvx = ['999'];
    expect(checkSchedule(unknownCode)).toEqual({
      ok: false,
      issues: [{ path: 'series.0.cvx.0', message: 'validation:scheduleUnknownVaccine' }],
    });
  });
});

describe('a dose on time', () => {
  it('counts pentavalent 1 given at 6 weeks, and makes pentavalent 2 upcoming 4 weeks later', () => {
    const s = statusOn(day(50), [coded('198', day(42))]);
    expect(dose(s, 'PENTA1')).toMatchObject({ state: 'given', date: day(42), reasons: [{ code: 'GIVEN_ON_TIME' }] });
    expect(dose(s, 'PENTA2')).toMatchObject({
      state: 'upcoming',
      date: day(70),
      reasons: [{ code: 'UPCOMING_AT_AGE', params: { age: '10w' } }],
    });
    expect(dose(s, 'PENTA3')).toMatchObject({
      state: 'upcoming',
      reasons: [{ code: 'UPCOMING_AFTER_PREVIOUS', params: { previous: 'Pentavalent 2' } }],
    });
  });

  it('is due at its age, then overdue after two weeks, saying by how many weeks', () => {
    const rows = [coded('198', day(42))];
    expect(dose(statusOn(day(72), rows), 'PENTA2')).toMatchObject({
      state: 'due',
      reasons: [{ code: 'DUE_AT_AGE', params: { age: '10w' } }],
    });
    const late = statusOn(day(70 + 21), rows);
    expect(dose(late, 'PENTA2')).toMatchObject({
      state: 'overdue',
      date: day(70),
      reasons: [
        { code: 'OVERDUE', params: { weeks: 3, date: day(70) } },
        { code: 'CATCH_UP_UNTIL', params: { date: '2031-01-05' } },
      ],
    });
  });
});

describe('a dose given early', () => {
  it('before its earliest age is not counted, and the dose is still due', () => {
    const s = statusOn(day(45), [coded('198', day(30))]);
    expect(s.notCounted).toMatchObject([{ reason: { code: 'TOO_EARLY_FOR_AGE', params: { dose: 'Pentavalent 1', age: '6w' } } }]);
    expect(dose(s, 'PENTA1')).toMatchObject({ state: 'due' });
  });

  it('before the minimum interval after the previous dose is not counted (minimum interval)', () => {
    const s = statusOn(day(100), [coded('198', day(60)), coded('198', day(80))]);
    expect(s.notCounted).toMatchObject([
      {
        date: day(80),
        reason: { code: 'TOO_EARLY_AFTER_PREVIOUS', params: { dose: 'Pentavalent 2', previous: 'Pentavalent 1', interval: '4w' } },
      },
    ]);
    expect(dose(s, 'PENTA2')).toMatchObject({
      state: 'due',
      date: day(88),
      reasons: [{ code: 'DUE_AFTER_INTERVAL', params: { previousDate: day(60) } }],
    });
  });
});

describe('a dose given late, and catch-up', () => {
  it('counts a late dose with how late it was', () => {
    const s = statusOn(day(200), [coded('198', day(42 + 35))]);
    expect(dose(s, 'PENTA1')).toMatchObject({ state: 'given', reasons: [{ code: 'GIVEN_LATE', params: { weeks: 5 } }] });
  });

  it('after a late first dose, the next is due by the minimum interval, not the age (MR2 after a late MR1)', () => {
    const mr1 = day(600); // about 20 months
    const s = statusOn(addDays(mr1, 30), [coded('04', mr1)]);
    expect(dose(s, 'MR2')).toMatchObject({
      state: 'due',
      date: addDays(mr1, 28),
      reasons: [{ code: 'DUE_AFTER_INTERVAL', params: { previous: 'MR 1', previousDate: mr1, interval: '4w' } }],
    });
  });

  it('a child never vaccinated is overdue for the first dose of each series, with the age the catch-up ends', () => {
    const s = statusOn(day(365), []);
    expect(dose(s, 'PENTA1')).toMatchObject({ state: 'overdue', reasons: [{ code: 'OVERDUE' }, { code: 'CATCH_UP_UNTIL' }] });
    expect(dose(s, 'MR1')).toMatchObject({ state: 'overdue' });
  });

  it('a birth dose whose window closed is skipped and the series goes on (OPV0, then OPV1)', () => {
    const s = statusOn(day(60), []);
    expect(dose(s, 'OPV0')).toMatchObject({ state: 'missed', reasons: [{ code: 'SKIPPED_WINDOW_CLOSED', params: { age: '14d' } }] });
    expect(dose(s, 'OPV1')).toMatchObject({ state: 'overdue' });
  });

  it('a dose past its latest age is missed (rotavirus after 24 months)', () => {
    const s = statusOn(day(800), []);
    expect(dose(s, 'ROTA1')).toMatchObject({ state: 'missed', reasons: [{ code: 'MISSED_PAST_LATEST', params: { age: '24m' } }] });
  });

  it('a first OPV given after the birth window counts as OPV 1', () => {
    const s = statusOn(day(50), [coded('178', day(43))]);
    expect(dose(s, 'OPV0')).toBeUndefined();
    expect(dose(s, 'OPV1')).toMatchObject({ state: 'given' });
  });
});

describe('doses recorded as free text', () => {
  it('a name the schedule knows is placed (MR1 written by hand)', () => {
    const s = statusOn(day(300), [text('mr1', day(275))]);
    expect(dose(s, 'MR1')).toMatchObject({ state: 'given', vaccineId: expect.any(Number) });
    expect(s.notMatched).toEqual([]);
  });

  it('a name it cannot place is listed as not matched, so a nurse can code it', () => {
    const s = statusOn(day(300), [text('The pink one', day(275))]);
    expect(s.notMatched).toMatchObject([{ vaccine: 'The pink one', reason: { code: 'NOT_MATCHED' } }]);
  });

  it('a coded vaccine outside the schedule (yellow fever) is neither placed nor listed', () => {
    const s = statusOn(day(300), [coded('37', day(275))]);
    expect(s.notMatched).toEqual([]);
    expect(s.notCounted).toEqual([]);
  });
});

describe('who a dose is for', () => {
  it('HPV is offered to girls from 9 years, never to boys', () => {
    const today = '2035-01-10';
    expect(dose(statusOn(today, [], girl), 'HPV1')).toMatchObject({ state: 'due' });
    expect(dose(statusOn(today, [], boy), 'HPV1')).toBeUndefined();
  });

  it('Td in pregnancy is offered only when a pregnancy is recorded', () => {
    const woman: SchedulePatient = { dateOfBirth: '1998-04-01', sex: 'Female', pregnant: false };
    expect(dose(statusOn('2026-11-26', [], woman), 'TD1')).toBeUndefined();
    expect(dose(statusOn('2026-11-26', [], { ...woman, pregnant: true }), 'TD1')).toMatchObject({ state: 'overdue' });
  });

  it('without a date of birth nothing is placed, and free text is still listed', () => {
    const s = statusOn('2026-11-26', [coded('198', '2026-03-01'), text('pink one', '2026-03-01')], { ...boy, dateOfBirth: null });
    expect(s).toMatchObject({ dateOfBirthKnown: false, doses: [], notMatched: [{ vaccine: 'pink one' }] });
  });
});
