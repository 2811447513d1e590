// Laboratory results on the server: the table, the abnormal flag and who entered the result, the catalogue's value
// type (a test that reports a number takes only a number), the duplicate warning (the same test on the same day),
// and FHIR Observation (category laboratory, LOINC coded), `lab-<id>`.
import { date, index, uniqueIndex, jsonb, numeric, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core';
import { eq } from 'drizzle-orm';
import { abnormalFlag, labResults as contract, type LabResultRow } from '../../../../contracts/kinds/lab-results';
import { UCUM_SYSTEM } from '../../../../contracts/code-systems';
import { patientRef } from '../../../db/schema';
import { codedFrom, day, first, obj, str, words, type Json } from '../../../fhir/input';
import { isLaboratory, OBSERVATION_SEARCH_PARAMS, observationFilter } from '../../../fhir/observation-search';
import { coding, concept, named, OBSERVATION_CATEGORY, patientReference, type FhirResource } from '../../../fhir/resources';
import { codedColumns } from './coded-columns';
import { duplicateEntryWarnings } from './duplicate-check.repository';
import { defineServerKind } from './server-kind';
import { versionedColumns } from './versioned-columns';

export const labResultsTable = pgTable(
  'lab_results',
  {
    id: serial('id').primaryKey(),
    patientId: patientRef(),
    ...versionedColumns(),
    name: varchar('name', { length: 200 }).notNull(),
    ...codedColumns(),
    /** A number or a text, as JSON: the API's `value` as it was sent. */
    value: jsonb('value').$type<number | string>().notNull(),
    unit: varchar('unit', { length: 32 }),
    referenceLow: numeric('reference_low'),
    referenceHigh: numeric('reference_high'),
    collectedDate: date('collected_date', { mode: 'string' }).notNull(),
    status: varchar('status', { length: 16 }).notNull(),
    facility: varchar('facility', { length: 200 }).notNull(),
    abnormalFlag: varchar('abnormal_flag', { length: 2 }),
    enteredBy: varchar('entered_by', { length: 200 }).notNull(),
    enteredAt: timestamp('entered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('lab_results_patient_idx').on(t.patientId, t.collectedDate), uniqueIndex('lab_results_uuid_idx').on(t.uuid)],
);

const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const ID = /^lab-([1-9]\d{0,9})$/;
const STATUS_FROM_FHIR: Record<string, string> = {
  final: 'final',
  preliminary: 'preliminary',
  corrected: 'corrected',
  amended: 'corrected',
};

const ucum = (value: number, unit: string | null) => ({ value, ...(unit ? { unit, system: UCUM_SYSTEM, code: unit } : {}) });

function observation(r: LabResultRow): FhirResource {
  const range =
    r.referenceLow !== null || r.referenceHigh !== null
      ? [
          {
            ...(r.referenceLow !== null ? { low: ucum(r.referenceLow, r.unit) } : {}),
            ...(r.referenceHigh !== null ? { high: ucum(r.referenceHigh, r.unit) } : {}),
          },
        ]
      : [];
  return {
    resourceType: 'Observation',
    id: `lab-${r.id}`,
    status: r.status,
    category: [{ ...coding(OBSERVATION_CATEGORY, 'laboratory', 'Laboratory'), text: 'Laboratory' }],
    code: concept(r.name, r),
    subject: patientReference(r.patientId),
    effectiveDateTime: r.collectedDate,
    issued: r.enteredAt,
    performer: [named(r.facility)],
    ...(typeof r.value === 'number' ? { valueQuantity: ucum(r.value, r.unit) } : { valueString: r.value }),
    ...(r.abnormalFlag ? { interpretation: [coding(INTERPRETATION, r.abnormalFlag)] } : {}),
    ...(range.length ? { referenceRange: range } : {}),
    note: [{ text: `Entered by ${r.enteredBy}` }],
  };
}

function inputOf(r: Json, by: { facility: string | undefined }): Json {
  const q = obj(r.valueQuantity);
  const range = first(r.referenceRange);
  const num = (v: unknown): number | null => (typeof obj(v).value === 'number' ? (obj(v).value as number) : null);
  return {
    name: words(r.code),
    ...codedFrom(r.code, contract.coded.systems),
    value: typeof q.value === 'number' ? q.value : str(r.valueString),
    unit: str(q.code) ?? str(q.unit) ?? null,
    referenceLow: num(range.low),
    referenceHigh: num(range.high),
    collectedDate: day(r.effectiveDateTime),
    status: STATUS_FROM_FHIR[str(r.status) ?? ''] ?? str(r.status),
    facility: str(first(r.performer).display) ?? by.facility,
  };
}

export const labResultsKind = defineServerKind<'lab-results'>({
  contract,
  table: labResultsTable,
  // The flag follows the value and range; who entered the result stays with it when it is corrected.
  stored: (input, by, existing) => ({
    abnormalFlag: abnormalFlag(input.value, input.referenceLow, input.referenceHigh),
    enteredBy: existing ? existing.enteredBy : by.name,
    enteredAt: existing ? new Date(existing.enteredAt) : by.now,
  }),
  validate: (input, code) =>
    code?.extra.valueType === 'numeric' && typeof input.value !== 'number'
      ? [{ path: 'value', message: 'validation:labValueNumberRequired' }]
      : [],
  check: (scope, input, editing) =>
    duplicateEntryWarnings(scope, labResultsTable, input, input.name, eq(labResultsTable.collectedDate, input.collectedDate), editing),
  fhir: {
    type: 'Observation',
    rowId: (id) => {
      const m = ID.exec(id);
      return m && Number(m[1]) <= 2_147_483_647 ? Number(m[1]) : null;
    },
    resources: (r) => [observation(r)],
    search: { params: OBSERVATION_SEARCH_PARAMS, select: (values) => observationFilter(values, 'laboratory') },
    create: {
      patientField: 'subject',
      accepts: isLaboratory,
      input: inputOf,
      expressions: {
        name: 'Observation.code',
        code: 'Observation.code.coding',
        codeSystem: 'Observation.code.coding',
        value: 'Observation.value[x]',
        unit: 'Observation.valueQuantity.code',
        referenceLow: 'Observation.referenceRange.low',
        referenceHigh: 'Observation.referenceRange.high',
        collectedDate: 'Observation.effectiveDateTime',
        status: 'Observation.status',
        facility: 'Observation.performer',
      },
    },
    ips: { code: '30954-2', title: 'Results' },
  },
});
