// Laboratory results on the server: the table, the abnormal flag and who entered the result, the catalogue's value
// type (a test that reports a number takes only a number), the duplicate warning (the same test on the same day),
// and FHIR Observation (category laboratory, LOINC coded), `lab-<id>`.
import { date, index, uniqueIndex, jsonb, numeric, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core';
import { eq } from 'drizzle-orm';
import {
  abnormalFlag,
  LAB_RESULT_STATUSES,
  labResults as contract,
  type LabReport,
  type LabResultRow,
} from '../../../../contracts/kinds/lab-results';
import { UCUM_SYSTEM } from '../../../../contracts/code-systems';
import { patientRef } from '../../../db/schema';
import { str, type Json } from '../../../fhir/input';
import {
  codedConcept,
  dayOf,
  displayOf,
  ENTERED_IN_ERROR_REASON,
  errorStatusOf,
  fixedCode,
  notHeld,
  oneOf,
  onlyKeys,
  single,
} from '../../../fhir/faithful';
import { isLaboratory, OBSERVATION_SEARCH_PARAMS, observationFilter } from '../../../fhir/observation-search';
import { coding, concept, named, OBSERVATION_CATEGORY, patientReference, type FhirResource } from '../../../fhir/resources';
import { codedColumns } from './coded-columns';
import { labReportFhir } from './lab-reports';
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
    /** The laboratory report (FHIR DiagnosticReport) the result belongs to, kept on each of its results (decision 049). */
    report: jsonb('report').$type<LabReport>(),
  },
  (t) => [index('lab_results_patient_idx').on(t.patientId, t.collectedDate), uniqueIndex('lab_results_uuid_idx').on(t.uuid)],
);

const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const ID = /^lab-([1-9]\d{0,9})$/;

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
    status: errorStatusOf(r) ? 'entered-in-error' : r.status,
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

/** A UCUM quantity as the record holds it: a number and one unit (its UCUM code, the unit written the same). */
function quantityOf(v: unknown, path: string): { value: unknown; unit: string | undefined } {
  const q = onlyKeys(v, ['value', 'unit', 'system', 'code'], path);
  if (q.system !== undefined && q.system !== UCUM_SYSTEM) throw notHeld(`${path}.system`, `The record holds units of ${UCUM_SYSTEM}`);
  const code = str(q.code);
  const unit = str(q.unit);
  if (code !== undefined && unit !== undefined && code !== unit)
    throw notHeld(`${path}.unit`, 'The record holds one unit: its UCUM code, written the same');
  return { value: q.value, unit: code ?? unit };
}

function inputOf(r: Json, by: { facility: string | undefined }): Json {
  const path = 'Observation';
  const status = oneOf(str(r.status), `${path}.status`, [...LAB_RESULT_STATUSES, 'entered-in-error']);
  oneOf(fixedCode(single(r.category, `${path}.category`), `${path}.category`, OBSERVATION_CATEGORY), `${path}.category`, ['laboratory']);
  const coded = codedConcept(r.code, `${path}.code`, contract.coded.systems);
  const quantity = r.valueQuantity === undefined ? null : quantityOf(r.valueQuantity, `${path}.valueQuantity`);
  const range = onlyKeys(single(r.referenceRange, `${path}.referenceRange`), ['low', 'high'], `${path}.referenceRange`);
  const low = range.low === undefined ? null : quantityOf(range.low, `${path}.referenceRange.low`);
  const high = range.high === undefined ? null : quantityOf(range.high, `${path}.referenceRange.high`);
  for (const [end, q] of [
    ['low', low],
    ['high', high],
  ] as const)
    if (q && q.unit !== undefined && q.unit !== quantity?.unit)
      throw notHeld(`${path}.referenceRange.${end}.code`, 'The record holds a range in the unit of the value');
  const value = quantity ? quantity.value : str(r.valueString);
  const num = (q: { value: unknown } | null): number | null => (q && typeof q.value === 'number' ? q.value : null);
  // The record works the interpretation out from the value and range; one sent must be what it works out.
  if (r.interpretation !== undefined) {
    const sent = fixedCode(single(r.interpretation, `${path}.interpretation`), `${path}.interpretation`, INTERPRETATION);
    const flag = typeof value === 'number' ? abnormalFlag(value, num(low), num(high)) : null;
    if (sent !== flag)
      throw notHeld(`${path}.interpretation`, `The record works the interpretation out from the value and range (${flag ?? 'none'})`);
  }
  return {
    name: coded.words,
    code: coded.code,
    codeSystem: coded.codeSystem,
    codings: coded.codings,
    value,
    unit: quantity?.unit ?? null,
    referenceLow: num(low) ?? (low ? low.value : null),
    referenceHigh: num(high) ?? (high ? high.value : null),
    collectedDate: dayOf(r.effectiveDateTime, `${path}.effectiveDateTime`),
    status: status === 'entered-in-error' ? 'final' : status,
    facility: displayOf(single(r.performer, `${path}.performer`), `${path}.performer`) ?? by.facility,
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
      elements: [
        'status',
        'category',
        'code',
        'subject',
        'effectiveDateTime',
        'performer',
        'valueQuantity',
        'valueString',
        'interpretation',
        'referenceRange',
      ],
      input: inputOf,
      enteredInError: (r) => (r.status === 'entered-in-error' ? ENTERED_IN_ERROR_REASON : null),
      expressions: {
        name: 'Observation.code',
        code: 'Observation.code.coding',
        codeSystem: 'Observation.code.coding',
        codings: 'Observation.code.coding',
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
  // The reports grouping the results (FHIR DiagnosticReport, decision 049).
  moreFhir: [labReportFhir],
});
