// The Medical Dashboard computations (SPEC §2, §9) at their edges, with a fixed "today".
import { describe, expect, it } from 'vitest';
import { medicalDashboard, type DashboardInput, type MedicalDashboard } from './record-dashboard';
import type { AllergyRow, AppointmentRow, DiagnosisRow, LabResultRow, MedicationRow, VitalsRow } from './kinds';
import { recentVisits, upcomingAppointments } from './kinds/appointments';
import { criticalAlerts } from './kinds/vitals';
import { v1 } from './kinds/versioned.fixture';

const uncoded = { code: null, codeSystem: null, codeDisplay: null };
/** The rows of one panel part (by its panel and heading). */
const part = (d: MedicalDashboard, panel: string, heading: string | null = null): unknown[] =>
  d.panels.find((p) => p.panel === panel)?.parts.find((x) => x.heading === heading)?.rows ?? [];
const counters = (d: MedicalDashboard) => Object.fromEntries(d.counters.map((c) => [c.key, c.value]));
const alertKeys = (d: MedicalDashboard) => d.alerts.map((a) => a.key);

const TODAY = '2025-06-15';
let nextId = 1;

const visit = (date: string, status = 'Completed', time: string | null = '10:00'): AppointmentRow => ({
  id: nextId++,
  patientId: 1,
  ...v1,
  type: `Visit ${date}`,
  date,
  time,
  findings: null,
  status,
  doctor: 'Dr. Shikongo',
  facility: 'Katutura State Hospital',
});
const diagnosis = (status: string): DiagnosisRow => ({
  id: nextId++,
  patientId: 1,
  ...v1,
  condition: `Condition ${status}`,
  ...uncoded,
  status,
  diagnosedDate: '2024-01-01',
  resolvedDate: null,
  description: null,
  doctor: 'Dr. Shikongo',
  facility: 'Katutura State Hospital',
});
const allergy = (allergen: string, severity: string): AllergyRow => ({
  id: nextId++,
  patientId: 1,
  ...v1,
  allergen,
  ...uncoded,
  reaction: 'Rash',
  severity,
  reportedDate: '2020-01-01',
});
const medication = (name: string, status: string, prescribedDate = '2024-01-01'): MedicationRow => ({
  id: nextId++,
  patientId: 1,
  ...v1,
  name,
  ...uncoded,
  dosage: '500mg daily',
  frequency: 'Daily',
  purpose: 'Test',
  status,
  prescribedDate,
  discontinuedDate: null,
  prescribedBy: 'Dr. Shikongo',
  nextReview: null,
});
const vitals = (v: Partial<VitalsRow> & { recordedAt: string }): VitalsRow => ({
  id: nextId++,
  patientId: 1,
  ...v1,
  systolic: null,
  diastolic: null,
  temperature: null,
  weight: null,
  recordedBy: 'Nurse Amutenya',
  ...v,
});
const empty: DashboardInput = { dateOfBirth: null };

describe('recent visits (last 30 days)', () => {
  it('includes today and exactly 30 days ago; excludes 31 days ago, the future and cancelled visits', () => {
    const list = [visit('2025-05-16'), visit('2025-05-15'), visit(TODAY), visit('2025-06-16'), visit('2025-06-01', 'Cancelled')];
    expect(recentVisits(list, TODAY).map((a) => a.date)).toEqual([TODAY, '2025-05-16']);
  });

  it('shows at most 3, newest first, and counts them all', () => {
    const list = ['2025-06-01', '2025-06-10', '2025-05-20', '2025-06-14', '2025-06-12'].map((d) => visit(d));
    const d = medicalDashboard({ ...empty, appointments: list }, TODAY);
    expect((part(d, 'recentActivity') as AppointmentRow[]).map((a) => a.date)).toEqual(['2025-06-14', '2025-06-12', '2025-06-10']);
    expect(counters(d).recentVisits).toBe(5);
  });

  it('crosses month and year ends by calendar days', () => {
    expect(recentVisits([visit('2024-12-02'), visit('2024-12-01')], '2024-12-31').map((a) => a.date)).toEqual(['2024-12-02', '2024-12-01']);
    expect(recentVisits([visit('2024-11-30')], '2024-12-31')).toEqual([]);
    expect(recentVisits([visit('2024-01-31')], '2024-03-01')).toHaveLength(1); // leap year: 30 days
  });
});

describe('upcoming appointments (next 30 days)', () => {
  it('includes today and exactly 30 days ahead; excludes 31 days ahead, the past and non-scheduled ones', () => {
    const list = [
      visit('2025-07-15', 'Scheduled'),
      visit('2025-07-16', 'Scheduled'),
      visit(TODAY, 'Scheduled'),
      visit('2025-06-14', 'Scheduled'),
      visit('2025-06-20', 'Cancelled'),
      visit('2025-06-20', 'Completed'),
    ];
    expect(upcomingAppointments(list, TODAY).map((a) => a.date)).toEqual([TODAY, '2025-07-15']);
  });

  it('shows at most 4, soonest first by date and time (no time last)', () => {
    const list = [
      visit('2025-06-20', 'Scheduled', null),
      visit('2025-06-20', 'Scheduled', '08:00'),
      visit('2025-06-18', 'Scheduled', '14:30'),
      visit('2025-06-18', 'Scheduled', '09:15'),
      visit('2025-06-16', 'Scheduled', '11:00'),
    ];
    const d = medicalDashboard({ ...empty, appointments: list }, TODAY);
    expect((part(d, 'upcoming') as AppointmentRow[]).map((a) => `${a.date} ${a.time}`)).toEqual([
      '2025-06-16 11:00',
      '2025-06-18 09:15',
      '2025-06-18 14:30',
      '2025-06-20 08:00',
    ]);
  });
});

describe('counters and safety information', () => {
  it('counts active conditions (Active and Chronic), current medications and allergies', () => {
    const d = medicalDashboard(
      {
        ...empty,
        diagnoses: [diagnosis('Active'), diagnosis('Chronic'), diagnosis('Resolved')],
        medications: [medication('Metformin', 'Active'), medication('Amoxicillin', 'Completed'), medication('Aspirin', 'Discontinued')],
        allergies: [allergy('Penicillin', 'Severe'), allergy('Pollen', 'Mild')],
      },
      TODAY,
    );
    expect(d.counters.map((c) => [c.key, c.value])).toEqual([
      ['activeConditions', 2],
      ['currentMedications', 1],
      ['recentVisits', 0],
      ['allergies', 2],
    ]);
  });

  it('leaves a "no known allergy" entry (sent through FHIR, decision 049) out of the allergy counter and the safety panel', () => {
    const none: AllergyRow = {
      ...allergy('No known allergy', ''),
      reaction: '',
      codings: [{ system: 'http://snomed.info/sct', code: '716186003', display: 'No known allergy' }],
    };
    const d = medicalDashboard({ ...empty, allergies: [none, allergy('Pollen', 'Mild')] }, TODAY);
    expect(counters(d).allergies).toBe(1);
    expect((part(d, 'safety', 'criticalAllergies') as AllergyRow[]).map((a) => a.allergen)).toEqual(['Pollen']);
  });

  it('lists at most 3 allergies, most severe first, and at most 3 active medications with their dosage', () => {
    const d = medicalDashboard(
      {
        ...empty,
        allergies: [allergy('Pollen', 'Mild'), allergy('Latex', 'Moderate'), allergy('Penicillin', 'Severe'), allergy('Dust', 'Mild')],
        medications: [
          medication('A', 'Active', '2024-01-01'),
          medication('B', 'Active', '2024-03-01'),
          medication('C', 'Discontinued', '2025-01-01'),
          medication('D', 'Active', '2024-02-01'),
          medication('E', 'Active', '2023-01-01'),
        ],
      },
      TODAY,
    );
    expect((part(d, 'safety', 'criticalAllergies') as AllergyRow[]).map((a) => a.allergen)).toEqual(['Penicillin', 'Latex', 'Pollen']);
    const medicines = part(d, 'safety', 'currentMedications') as MedicationRow[];
    expect(medicines.map((m) => m.name)).toEqual(['B', 'D', 'A']);
    expect(medicines[0]!.dosage).toBe('500mg daily');
    expect(d.panels.find((p) => p.panel === 'safety')!.parts.map((p) => p.heading)).toEqual(['criticalAllergies', 'currentMedications']);
  });

  it('has nothing to show for an empty record', () => {
    const d = medicalDashboard(empty, TODAY);
    expect(d.panels.flatMap((p) => p.parts.flatMap((x) => x.rows))).toEqual([]);
    expect(d.alerts).toEqual([]);
    expect(d.panels.map((p) => p.panel)).toEqual(['recentActivity', 'safety', 'upcoming', 'latestVitals', 'recentResults']);
  });
});

describe('age', () => {
  it('is computed from the date of birth in completed years', () => {
    expect(medicalDashboard({ ...empty, dateOfBirth: '1980-06-15' }, TODAY).age).toBe(45);
    expect(medicalDashboard({ ...empty, dateOfBirth: '1980-06-16' }, TODAY).age).toBe(44);
    expect(medicalDashboard({ ...empty, dateOfBirth: '2000-02-29' }, '2025-02-28').age).toBe(24);
    expect(medicalDashboard({ ...empty, dateOfBirth: null }, TODAY).age).toBeNull();
  });
});

describe('critical alerts (SPEC §9)', () => {
  const at = (h: number) => `2025-06-15T${String(h).padStart(2, '0')}:00:00.000Z`;

  it('alerts for 185/95 and for 95/121, not for 180/120', () => {
    expect(criticalAlerts([vitals({ systolic: 185, diastolic: 95, recordedAt: at(8) })])).toEqual([{ key: 'hypertensiveCrisis' }]);
    expect(criticalAlerts([vitals({ systolic: 160, diastolic: 121, recordedAt: at(8) })])).toEqual([{ key: 'hypertensiveCrisis' }]);
    expect(criticalAlerts([vitals({ systolic: 180, diastolic: 120, recordedAt: at(8) })])).toEqual([]);
  });

  it('alerts for 39.6 °C and 34.9 °C, not for 39.5 °C or 35 °C', () => {
    expect(criticalAlerts([vitals({ temperature: 39.6, recordedAt: at(8) })])).toEqual([{ key: 'dangerousTemperature' }]);
    expect(criticalAlerts([vitals({ temperature: 34.9, recordedAt: at(8) })])).toEqual([{ key: 'dangerousTemperature' }]);
    expect(criticalAlerts([vitals({ temperature: 39.5, recordedAt: at(8) })])).toEqual([]);
    expect(criticalAlerts([vitals({ temperature: 35, recordedAt: at(8) })])).toEqual([]);
  });

  it('uses the latest reading of each measure, in any list order', () => {
    const older = vitals({ systolic: 200, diastolic: 130, temperature: 40.1, recordedAt: at(6) });
    const newer = vitals({ systolic: 130, diastolic: 85, recordedAt: at(9) });
    // The newer reading brought the pressure down; the temperature was not measured again, so it still alerts.
    expect(criticalAlerts([older, newer])).toEqual([{ key: 'dangerousTemperature' }]);
    expect(criticalAlerts([newer, older])).toEqual([{ key: 'dangerousTemperature' }]);
    const both = vitals({ systolic: 185, diastolic: 95, temperature: 39.6, recordedAt: at(10) });
    expect(alertKeys(medicalDashboard({ ...empty, vitals: [older, newer, both] }, TODAY))).toEqual([
      'hypertensiveCrisis',
      'dangerousTemperature',
    ]);
  });

  it('has no alerts without vital signs', () => {
    expect(criticalAlerts([])).toEqual([]);
  });
});

describe('laboratory results on the dashboard', () => {
  const result = (
    name: string,
    collectedDate: string,
    abnormalFlag: LabResultRow['abnormalFlag'],
    code: string | null = null,
  ): LabResultRow => ({
    id: nextId++,
    patientId: 1,
    ...v1,
    name,
    ...uncoded,
    code,
    codeSystem: code ? 'http://loinc.org' : null,
    value: 1,
    unit: null,
    referenceLow: null,
    referenceHigh: null,
    collectedDate,
    status: 'final',
    facility: 'Windhoek Central Hospital',
    abnormalFlag,
    enteredBy: 'Nurse Amutenya',
    enteredAt: '2025-06-15T08:00:00.000Z',
  });

  it('alerts for a test whose latest result is critically low or high, not for H or L, nor for one since back in range', () => {
    const d = medicalDashboard(
      {
        ...empty,
        'lab-results': [
          result('Potassium', '2025-06-14', 'HH', '2823-3'),
          result('Haemoglobin', '2025-06-10', 'LL', '718-7'),
          result('Haemoglobin', '2025-06-12', null, '718-7'),
          result('Glucose', '2025-06-13', 'H', '2345-7'),
        ],
      },
      TODAY,
    );
    expect(d.alerts).toEqual([{ key: 'criticalResult', params: { name: 'Potassium', value: '1', flag: 'HH' }, kind: 'lab-results' }]);
  });

  it('lists the latest 5 results, newest first', () => {
    const rows = ['2025-06-01', '2025-06-09', '2025-06-03', '2025-06-05', '2025-06-07', '2025-06-02'].map((d) => result(`T ${d}`, d, null));
    const d = medicalDashboard({ ...empty, 'lab-results': rows }, TODAY);
    expect((part(d, 'recentResults') as LabResultRow[]).map((r) => r.collectedDate)).toEqual([
      '2025-06-09',
      '2025-06-07',
      '2025-06-05',
      '2025-06-03',
      '2025-06-02',
    ]);
  });
});
