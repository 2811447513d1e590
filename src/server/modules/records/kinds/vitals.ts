// Vital signs on the server: the table, who recorded them and when, and FHIR: one reading is up to three
// vital-signs Observations (blood pressure panel, temperature, weight), `<reading id>-bp|temperature|weight`.
import { index, uniqueIndex, integer, numeric, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core';
import { vitals as contract, type VitalsRow } from '../../../../contracts/kinds/vitals';
import { patientRef } from '../../../db/schema';
import { validationFailed } from '../../../errors/app-error';
import { firstCode, obj, str, type Json } from '../../../fhir/input';
import { isLaboratory, OBSERVATION_SEARCH_PARAMS, observationFilter } from '../../../fhir/observation-search';
import { coding, loinc, named, OBSERVATION_CATEGORY, patientReference, quantity, type FhirResource } from '../../../fhir/resources';
import { defineServerKind } from './server-kind';
import { versionedColumns } from './versioned-columns';

export const vitalsTable = pgTable(
  'vitals',
  {
    id: serial('id').primaryKey(),
    patientId: patientRef(),
    ...versionedColumns(),
    systolic: integer('systolic'),
    diastolic: integer('diastolic'),
    temperature: numeric('temperature', { precision: 4, scale: 1 }),
    weight: numeric('weight', { precision: 5, scale: 1 }),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
    recordedBy: varchar('recorded_by', { length: 200 }).notNull(),
  },
  (t) => [index('vitals_patient_time_idx').on(t.patientId, t.recordedAt), uniqueIndex('vitals_uuid_idx').on(t.uuid)],
);

/** The LOINC codes of the vital signs we record (FHIR vital signs profile). */
export const VITALS_LOINC = {
  bloodPressure: { code: '85354-9', display: 'Blood pressure panel with all children optional' },
  systolic: { code: '8480-6', display: 'Systolic blood pressure' },
  diastolic: { code: '8462-4', display: 'Diastolic blood pressure' },
  temperature: { code: '8310-5', display: 'Body temperature' },
  weight: { code: '29463-7', display: 'Body weight' },
} as const;
const PROFILES = {
  bp: 'http://hl7.org/fhir/StructureDefinition/bp',
  temperature: 'http://hl7.org/fhir/StructureDefinition/bodytemp',
  weight: 'http://hl7.org/fhir/StructureDefinition/bodyweight',
} as const;
type Part = keyof typeof PROFILES;
const PART_ID = /^([1-9]\d{0,9})-(bp|temperature|weight)$/;

function observations(v: VitalsRow): FhirResource[] {
  const base = (part: Part) => ({
    resourceType: 'Observation',
    id: `${v.id}-${part}`,
    meta: { profile: [PROFILES[part]] },
    status: 'final',
    category: [{ ...coding(OBSERVATION_CATEGORY, 'vital-signs', 'Vital Signs'), text: 'Vital Signs' }],
    subject: patientReference(v.patientId),
    effectiveDateTime: v.recordedAt,
    performer: [named(v.recordedBy)],
  });
  const out: FhirResource[] = [];
  if (v.systolic !== null || v.diastolic !== null) {
    const component = (c: { code: string; display: string }, value: number | null) =>
      value === null
        ? { code: loinc(c), dataAbsentReason: coding('http://terminology.hl7.org/CodeSystem/data-absent-reason', 'not-performed') }
        : { code: loinc(c), valueQuantity: quantity(value, 'mmHg', 'mm[Hg]') };
    out.push({
      ...base('bp'),
      code: loinc(VITALS_LOINC.bloodPressure),
      component: [component(VITALS_LOINC.systolic, v.systolic), component(VITALS_LOINC.diastolic, v.diastolic)],
    });
  }
  if (v.temperature !== null)
    out.push({ ...base('temperature'), code: loinc(VITALS_LOINC.temperature), valueQuantity: quantity(v.temperature, 'C', 'Cel') });
  if (v.weight !== null) out.push({ ...base('weight'), code: loinc(VITALS_LOINC.weight), valueQuantity: quantity(v.weight, 'kg', 'kg') });
  return out;
}

/** An Observation's component or value as a number in the unit we store; undefined when absent, null in another unit. */
function measured(q: unknown, unit: string): number | null | undefined {
  const v = obj(q);
  if (Object.keys(v).length === 0) return undefined;
  return v.code === unit && typeof v.value === 'number' ? v.value : null;
}

const VITAL_CODES: readonly string[] = [VITALS_LOINC.bloodPressure.code, VITALS_LOINC.temperature.code, VITALS_LOINC.weight.code];
const isVitalSigns = (r: Json): boolean => VITAL_CODES.includes(firstCode(r.code) ?? '');

function inputOf(r: Json): Json {
  const code = firstCode(r.code);
  const at = str(r.effectiveDateTime);
  if (code === VITALS_LOINC.bloodPressure.code) {
    const components = (Array.isArray(r.component) ? r.component : []) as Json[];
    const part = (c: string) => components.find((x) => firstCode(x.code) === c);
    const systolic = measured(part(VITALS_LOINC.systolic.code)?.valueQuantity, 'mm[Hg]');
    const diastolic = measured(part(VITALS_LOINC.diastolic.code)?.valueQuantity, 'mm[Hg]');
    return { systolic: systolic ?? 'missing', diastolic: diastolic ?? 'missing', recordedAt: at };
  }
  if (code === VITALS_LOINC.temperature.code) return { temperature: measured(r.valueQuantity, 'Cel') ?? 'missing', recordedAt: at };
  if (code === VITALS_LOINC.weight.code) return { weight: measured(r.valueQuantity, 'kg') ?? 'missing', recordedAt: at };
  throw validationFailed([{ path: 'Observation.code', message: 'Vital signs: LOINC 85354-9, 8310-5 or 29463-7' }]);
}

export const vitalsKind = defineServerKind<'vitals'>({
  contract,
  table: vitalsTable,
  // DESIGN.md §9: recorded by the signed-in user; recorded now unless the reading is dated. An edit keeps both.
  stored: (input, by, existing) => ({
    recordedAt: input.recordedAt ? new Date(input.recordedAt) : existing ? new Date(existing.recordedAt) : by.now,
    recordedBy: existing ? existing.recordedBy : by.name,
  }),
  fhir: {
    type: 'Observation',
    profile: 'http://hl7.org/fhir/StructureDefinition/vitalsigns',
    rowId: (id) => {
      const m = PART_ID.exec(id);
      return m && Number(m[1]) <= 2_147_483_647 ? Number(m[1]) : null;
    },
    resources: observations,
    search: { params: OBSERVATION_SEARCH_PARAMS, select: (values) => observationFilter(values, 'vital-signs') },
    create: {
      patientField: 'subject',
      // A laboratory Observation goes to the laboratory results; anything else with a vital-signs code comes here.
      accepts: (r) => isVitalSigns(r) || !isLaboratory(r),
      input: inputOf,
      expressions: {
        systolic: 'Observation.component',
        diastolic: 'Observation.component',
        temperature: 'Observation.valueQuantity',
        weight: 'Observation.valueQuantity',
        recordedAt: 'Observation.effectiveDateTime',
      },
    },
    ips: { code: '8716-3', title: 'Vital signs' },
  },
});
