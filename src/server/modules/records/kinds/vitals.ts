// Vital signs on the server: the table, who recorded them and when, and FHIR: one reading is up to three
// vital-signs Observations (blood pressure panel, temperature, weight), `<reading id>-bp|temperature|weight`.
import { index, uniqueIndex, integer, numeric, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core';
import { vitals as contract, type VitalsRow } from '../../../../contracts/kinds/vitals';
import { patientRef } from '../../../db/schema';
import { LOINC_SYSTEM, UCUM_SYSTEM } from '../../../../contracts/code-systems';
import { firstCode, str, type Json } from '../../../fhir/input';
import { ENTERED_IN_ERROR_REASON, errorStatusOf, fixedCode, notHeld, oneOf, onlyKeys, single } from '../../../fhir/faithful';
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
    status: errorStatusOf(v) ? 'entered-in-error' : 'final',
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

/** The unit each measure is held in: its UCUM code and the unit as written. */
const UNITS = { 'mm[Hg]': 'mmHg', Cel: 'C', kg: 'kg' } as const;

/**
 * A component's or value's quantity as a number in the unit we store: undefined when absent; refused (422) in another
 * unit or with a comparator; a value that is not a number goes on to the schema.
 */
function measured(q: unknown, code: keyof typeof UNITS, path: string): unknown {
  if (q === undefined) return undefined;
  const v = onlyKeys(q, ['value', 'unit', 'system', 'code'], path);
  if (v.code !== code || (v.system !== undefined && v.system !== UCUM_SYSTEM))
    throw notHeld(`${path}.code`, `The record holds this measure in ${UCUM_SYSTEM} ${code}`);
  if (v.unit !== undefined && v.unit !== UNITS[code]) throw notHeld(`${path}.unit`, `The record writes this unit '${UNITS[code]}'`);
  return v.value;
}

const LOINC_DISPLAYS: Record<string, string> = Object.fromEntries(Object.values(VITALS_LOINC).map((c) => [c.code, c.display]));

/** A LOINC code of a vital sign: one LOINC coding (its display LOINC's own words); a text, if sent, is LOINC's display. */
function loincCode(v: unknown, path: string): string | undefined {
  const concept = onlyKeys(v, ['coding', 'text'], path);
  const code = fixedCode({ coding: concept.coding }, path, LOINC_SYSTEM);
  if (concept.text !== undefined && concept.text !== LOINC_DISPLAYS[code ?? ''])
    throw notHeld(`${path}.text`, `The record names this measure by its LOINC display (${LOINC_DISPLAYS[code ?? ''] ?? 'none'})`);
  return code;
}

const VITAL_CODES: readonly string[] = [VITALS_LOINC.bloodPressure.code, VITALS_LOINC.temperature.code, VITALS_LOINC.weight.code];
const isVitalSigns = (r: Json): boolean => VITAL_CODES.includes(firstCode(r.code) ?? '');

function inputOf(r: Json): Json {
  oneOf(str(r.status), 'Observation.status', ['final', 'entered-in-error']);
  oneOf(fixedCode(single(r.category, 'Observation.category'), 'Observation.category', OBSERVATION_CATEGORY), 'Observation.category', [
    'vital-signs',
  ]);
  const code = loincCode(r.code, 'Observation.code');
  const at = str(r.effectiveDateTime);
  if (code === VITALS_LOINC.bloodPressure.code) {
    if (r.valueQuantity !== undefined) throw notHeld('Observation.valueQuantity', 'A blood pressure is held as its two components');
    const components = (Array.isArray(r.component) ? r.component : []) as unknown[];
    const parts: Record<string, unknown> = {};
    components.forEach((c, i) => {
      const path = `Observation.component[${i}]`;
      const part = onlyKeys(c, ['code', 'valueQuantity'], path);
      const partCode = loincCode(part.code, `${path}.code`);
      if (partCode !== VITALS_LOINC.systolic.code && partCode !== VITALS_LOINC.diastolic.code)
        throw notHeld(`${path}.code`, 'A blood pressure holds the systolic (8480-6) and diastolic (8462-4) pressures');
      parts[partCode] = measured(part.valueQuantity, 'mm[Hg]', `${path}.valueQuantity`);
    });
    return {
      systolic: parts[VITALS_LOINC.systolic.code] ?? 'missing',
      diastolic: parts[VITALS_LOINC.diastolic.code] ?? 'missing',
      recordedAt: at,
    };
  }
  if (r.component !== undefined) throw notHeld('Observation.component', 'Only a blood pressure is held with components');
  if (code === VITALS_LOINC.temperature.code)
    return { temperature: measured(r.valueQuantity, 'Cel', 'Observation.valueQuantity') ?? 'missing', recordedAt: at };
  if (code === VITALS_LOINC.weight.code)
    return { weight: measured(r.valueQuantity, 'kg', 'Observation.valueQuantity') ?? 'missing', recordedAt: at };
  throw notHeld('Observation.code', 'Vital signs: LOINC 85354-9, 8310-5 or 29463-7; a laboratory result has category laboratory');
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
      elements: ['status', 'category', 'code', 'subject', 'effectiveDateTime', 'valueQuantity', 'component'],
      input: inputOf,
      enteredInError: (r) => (r.status === 'entered-in-error' ? ENTERED_IN_ERROR_REASON : null),
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
