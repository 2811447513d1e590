// A few plausible clinical rows per synthetic patient: diagnoses, appointments, allergies, medications, vaccines and
// laboratory results; most entries coded from the catalogues shipped with the app (catalogues/), some free text.
import { FACILITIES } from '../../src/contracts/constants';
import { ALLERGY_SUBSTANCE_SYSTEM, ATC_SYSTEM, CVX_SYSTEM, ICD10_SYSTEM, LOINC_SYSTEM, type CodeKind } from '../../src/contracts/codes';
import { abnormalFlag } from '../../src/contracts/kinds/lab-results';
import { lookupCode } from '../../src/server/modules/codes/codes.service';
import {
  ALLERGIES,
  ALLERGY_SEVERITIES,
  APPOINTMENT_TYPES,
  CONDITIONS,
  DOCTORS,
  FINDINGS,
  LAB_TESTS,
  MEDICATIONS,
  VACCINES,
} from '../data/clinical';
import type { SyntheticPatient } from './people';
import { Rng } from './random';

export type Cell = string | number | null;

/** Column order of each clinical table as loaded (snake_case database names). */
export const CLINICAL_COLUMNS = {
  diagnoses: [
    'patient_id',
    'condition',
    'code',
    'code_system',
    'code_display',
    'status',
    'diagnosed_date',
    'resolved_date',
    'description',
    'doctor',
    'facility',
  ],
  appointments: ['patient_id', 'type', 'date', 'time', 'findings', 'status', 'doctor', 'facility'],
  allergies: ['patient_id', 'allergen', 'code', 'code_system', 'code_display', 'reaction', 'severity', 'reported_date'],
  medications: [
    'patient_id',
    'name',
    'code',
    'code_system',
    'code_display',
    'dosage',
    'frequency',
    'purpose',
    'status',
    'prescribed_date',
    'discontinued_date',
    'prescribed_by',
    'next_review',
  ],
  vaccines: ['patient_id', 'vaccine', 'code', 'code_system', 'code_display', 'date', 'dose', 'facility', 'next_due', 'batch_number'],
  lab_results: [
    'patient_id',
    'name',
    'code',
    'code_system',
    'code_display',
    'value',
    'unit',
    'reference_low',
    'reference_high',
    'collected_date',
    'status',
    'facility',
    'abnormal_flag',
    'entered_by',
    'entered_at',
  ],
} as const;
export type ClinicalTable = keyof typeof CLINICAL_COLUMNS;
export const CLINICAL_TABLES = Object.keys(CLINICAL_COLUMNS) as ClinicalTable[];

export type ClinicalRows = Record<ClinicalTable, Cell[][]>;

const REGION_FACILITY: Record<string, string> = {
  Khomas: 'Windhoek Central Hospital',
  Oshana: 'Oshakati State Hospital',
  Ohangwena: 'Oshakati State Hospital',
  Omusati: 'Oshakati State Hospital',
  Oshikoto: 'Oshmed',
  'Kavango East': 'Rundu State Hospital',
  'Kavango West': 'Rundu State Hospital',
  Erongo: 'Walvis Bay State Hospital',
  Omaheke: 'Gobabis State Hospital',
};

function facility(rng: Rng, region: string): string {
  if (region === 'Khomas' && rng.chance(0.4)) return 'Katutura State Hospital';
  return rng.chance(0.8) ? (REGION_FACILITY[region] ?? rng.pick(FACILITIES)) : rng.pick(FACILITIES);
}

function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A day between the later of `from` and the date of birth, and `asOf` plus `aheadDays`. */
function dayBetween(rng: Rng, patient: SyntheticPatient, asOf: string, backDays: number, aheadDays = 0): string {
  const d = addDays(asOf, rng.int(-backDays, aheadDays));
  return d < patient.dateOfBirth ? patient.dateOfBirth : d;
}

/** Share of entries stored with their catalogue code; the rest are free text, as clinicians also write. */
const CODED_SHARE = 0.85;

/** code, code_system, code_display of a catalogue entry (checked against the catalogue), or three nulls for free text. */
function coded(rng: Rng, kind: CodeKind, system: string, code: string): Cell[] {
  if (!rng.chance(CODED_SHARE)) return [null, null, null];
  const entry = lookupCode(kind, system, code);
  if (!entry) throw new Error(`seed data: ${system}|${code} is not in the ${kind} catalogue`);
  return [entry.code, entry.codeSystem, entry.display];
}

/** Up to `max` rows, most patients having few. */
function count(rng: Rng, weights: readonly number[]): number {
  let x = rng.next() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < weights.length; i++) if ((x -= weights[i]!) < 0) return i;
  return weights.length - 1;
}

export function clinicalRows(patient: SyntheticPatient, seed: number, asOf: string, into: ClinicalRows): void {
  const rng = new Rng(seed, patient.id, 0xc11);
  const adult = patient.ageYears >= 18;
  const pid = patient.id;
  const chronic: string[] = [];

  for (let i = count(rng, adult ? [35, 40, 25] : [60, 35, 5]); i > 0; i--) {
    const c = rng.pick(CONDITIONS);
    if (c.condition.startsWith('Pregnancy') && (patient.sex !== 'Female' || patient.ageYears < 16 || patient.ageYears > 45)) continue;
    const diagnosed = dayBetween(rng, patient, asOf, 3650);
    const resolved = !c.chronic && rng.chance(0.8) ? addDays(diagnosed, rng.int(5, 60)) : null;
    const status = c.chronic ? (rng.chance(0.6) ? 'Chronic' : 'Active') : resolved && resolved <= asOf ? 'Resolved' : 'Active';
    if (c.chronic) chronic.push(c.condition);
    into.diagnoses.push([
      pid,
      c.condition,
      ...coded(rng, 'diagnoses', ICD10_SYSTEM, c.code),
      status,
      diagnosed,
      resolved && resolved <= asOf ? resolved : null,
      rng.chance(0.3) ? 'Confirmed at follow-up' : null,
      rng.pick(DOCTORS),
      facility(rng, patient.region),
    ]);
  }

  for (let i = count(rng, [30, 45, 20, 5]); i > 0; i--) {
    const date = dayBetween(rng, patient, asOf, 730, 60);
    const past = date < asOf;
    const status = past ? (rng.chance(0.85) ? 'Completed' : 'Cancelled') : 'Scheduled';
    const time = `${String(rng.int(7, 16)).padStart(2, '0')}:${rng.pick(['00', '15', '30', '45'])}`;
    const type = patient.ageYears < 5 && rng.chance(0.5) ? 'Immunisation' : rng.pick(APPOINTMENT_TYPES);
    into.appointments.push([
      pid,
      type,
      date,
      time,
      status === 'Completed' ? rng.pick(FINDINGS) : null,
      status,
      rng.pick(DOCTORS),
      facility(rng, patient.region),
    ]);
  }

  if (rng.chance(0.22)) {
    const a = rng.pick(ALLERGIES);
    const system = a.system === 'atc' ? ATC_SYSTEM : ALLERGY_SUBSTANCE_SYSTEM;
    into.allergies.push([
      pid,
      a.allergen,
      ...coded(rng, 'allergies', system, a.code),
      a.reaction,
      rng.pick(ALLERGY_SEVERITIES),
      dayBetween(rng, patient, asOf, 5000),
    ]);
  }

  for (let i = adult ? count(rng, [50, 30, 20]) : count(rng, [80, 20]); i > 0; i--) {
    const m = rng.pick(MEDICATIONS);
    const prescribed = dayBetween(rng, patient, asOf, 1500);
    const active = chronic.length > 0 ? rng.chance(0.7) : rng.chance(0.25);
    const discontinued = active ? null : addDays(prescribed, rng.int(7, 120));
    const status = active ? 'Active' : rng.chance(0.5) ? 'Completed' : 'Discontinued';
    into.medications.push([
      pid,
      m.name,
      ...coded(rng, 'medications', ATC_SYSTEM, m.code),
      m.dosage,
      m.frequency,
      m.purpose,
      status,
      prescribed,
      discontinued && discontinued <= asOf ? discontinued : null,
      rng.pick(DOCTORS),
      active ? addDays(asOf, rng.int(7, 180)) : null,
    ]);
  }

  const childhood = VACCINES.filter((v) => v.childhood);
  const adultVaccines = VACCINES.filter((v) => !v.childhood);
  const doses = patient.ageYears < 6 ? rng.int(1, 3) : count(rng, [45, 40, 15]);
  for (let i = 0; i < doses; i++) {
    const v = patient.ageYears < 6 ? childhood[i % childhood.length]! : rng.pick(adultVaccines);
    const date = patient.ageYears < 6 ? addDays(patient.dateOfBirth, i * 42 + rng.int(0, 14)) : dayBetween(rng, patient, asOf, 2500);
    const batch = rng.chance(0.7) ? `${v.vaccine.slice(0, 2).toUpperCase()}${rng.int(10000, 99999)}` : null;
    into.vaccines.push([
      pid,
      v.vaccine,
      ...coded(rng, 'vaccines', CVX_SYSTEM, v.code),
      date > asOf ? asOf : date,
      v.dose,
      facility(rng, patient.region),
      rng.chance(0.3) ? addDays(asOf, rng.int(30, 365)) : null,
      batch,
    ]);
  }

  labResults(rng, patient, asOf, chronic.length > 0, into);
}

export function emptyClinicalRows(): ClinicalRows {
  return { diagnoses: [], appointments: [], allergies: [], medications: [], vaccines: [], lab_results: [] };
}

/** Laboratory results: adults with a chronic condition have more; values spread around the range, so some are flagged. */
function labResults(rng: Rng, patient: SyntheticPatient, asOf: string, chronic: boolean, into: ClinicalRows): void {
  const n = count(rng, chronic ? [20, 30, 30, 20] : patient.ageYears >= 18 ? [55, 30, 15] : [80, 20]);
  for (let i = 0; i < n; i++) {
    const test = rng.pick(LAB_TESTS);
    const collected = dayBetween(rng, patient, asOf, 1095);
    let value: number | string;
    if (Array.isArray(test.values)) value = rng.pick(test.values as readonly string[]);
    else {
      const v = test.values as { mean: number; spread: number; decimals: number };
      const x = Math.max(0, v.mean + (rng.next() + rng.next() + rng.next() - 1.5) * 2 * v.spread);
      value = Number(x.toFixed(v.decimals));
    }
    const enteredAt = `${collected}T${String(rng.int(8, 16)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:00Z`;
    into.lab_results.push([
      patient.id,
      test.name,
      ...coded(rng, 'lab-results', LOINC_SYSTEM, test.code),
      JSON.stringify(value),
      test.unit,
      test.low,
      test.high,
      collected,
      rng.chance(0.95) ? 'final' : 'preliminary',
      facility(rng, patient.region),
      abnormalFlag(value, test.low, test.high),
      rng.pick(DOCTORS),
      enteredAt,
    ]);
  }
}
