// Diagnoses on the server: the table, the duplicate warning, and FHIR Condition (problem-list item, ICD-10 coded).
import { date, index, uniqueIndex, pgTable, serial, text as textColumn, varchar } from 'drizzle-orm/pg-core';
import { ne } from 'drizzle-orm';
import { diagnoses as contract } from '../../../../contracts/kinds/diagnoses';
import { patientRef } from '../../../db/schema';
import { firstCode, obj, str, type Json } from '../../../fhir/input';
import {
  codedConcept,
  dayOf,
  displayOf,
  ENTERED_IN_ERROR_REASON,
  errorStatusOf,
  fixedCode,
  notHeld,
  noteText,
  oneOf,
  onlyKeys,
  REFUTED_REASON,
  single,
} from '../../../fhir/faithful';
import { coding, concept, named, patientReference, rowIdOf } from '../../../fhir/resources';
import { codedColumns } from './coded-columns';
import { duplicateEntryWarnings } from './duplicate-check.repository';
import { defineServerKind } from './server-kind';
import { versionedColumns } from './versioned-columns';

export const diagnosesTable = pgTable(
  'diagnoses',
  {
    id: serial('id').primaryKey(),
    patientId: patientRef(),
    ...versionedColumns(),
    condition: varchar('condition', { length: 200 }).notNull(),
    ...codedColumns(),
    status: varchar('status', { length: 16 }).notNull().default('Active'),
    diagnosedDate: date('diagnosed_date', { mode: 'string' }).notNull(),
    resolvedDate: date('resolved_date', { mode: 'string' }),
    description: textColumn('description'),
    doctor: varchar('doctor', { length: 200 }).notNull(),
    facility: varchar('facility', { length: 200 }).notNull(),
  },
  (t) => [index('diagnoses_patient_idx').on(t.patientId), uniqueIndex('diagnoses_uuid_idx').on(t.uuid)],
);

const CLINICAL = 'http://terminology.hl7.org/CodeSystem/condition-clinical';
const VERIFICATION = 'http://terminology.hl7.org/CodeSystem/condition-ver-status';
const CATEGORY = 'http://terminology.hl7.org/CodeSystem/condition-category';
/** Our extensions of Condition: a chronic condition (clinical status active), and the facility that recorded it. */
export const CHRONIC_EXTENSION = 'https://nhr.health.gov.na/fhir/StructureDefinition/chronic-condition';
export const FACILITY_EXTENSION = 'https://nhr.health.gov.na/fhir/StructureDefinition/recording-facility';
const TO_CLINICAL: Record<string, string> = { Active: 'active', Chronic: 'active', Resolved: 'resolved' };

/** Our two extensions as sent: chronic (valueBoolean) and the facility (valueString); refused otherwise. */
function extensionsOf(v: unknown): { chronic: boolean; facility: string | undefined } {
  const out = { chronic: false, facility: undefined as string | undefined };
  if (v === undefined) return out;
  (Array.isArray(v) ? v : [v]).forEach((e, i) => {
    const path = `Condition.extension[${i}]`;
    const ext = obj(e);
    if (ext.url === CHRONIC_EXTENSION && typeof onlyKeys(ext, ['url', 'valueBoolean'], path).valueBoolean === 'boolean')
      out.chronic = ext.valueBoolean as boolean;
    else if (ext.url === FACILITY_EXTENSION) out.facility = str(onlyKeys(ext, ['url', 'valueString'], path).valueString);
    else throw notHeld(path, 'The record cannot hold this extension');
  });
  return out;
}

function conditionInput(r: Json, by: { name: string; facility: string | undefined }): Json {
  const verification = oneOf(
    fixedCode(r.verificationStatus, 'Condition.verificationStatus', VERIFICATION),
    'Condition.verificationStatus',
    ['confirmed', 'refuted', 'entered-in-error'],
  );
  const clinical = oneOf(fixedCode(r.clinicalStatus, 'Condition.clinicalStatus', CLINICAL), 'Condition.clinicalStatus', [
    'active',
    'resolved',
  ]);
  if (r.category !== undefined)
    oneOf(fixedCode(single(r.category, 'Condition.category'), 'Condition.category', CATEGORY), 'Condition.category', ['problem-list-item']);
  const { chronic, facility } = extensionsOf(r.extension);
  if (chronic && clinical !== 'active') throw notHeld('Condition.extension', 'A chronic condition is an active one');
  const onset = dayOf(r.onsetDateTime, 'Condition.onsetDateTime');
  const recorded = dayOf(r.recordedDate, 'Condition.recordedDate');
  // The record holds one date: when the condition was diagnosed (FHIR's onset, and the date it was recorded).
  if (onset !== undefined && recorded !== undefined && onset !== recorded)
    throw notHeld('Condition.recordedDate', 'The record holds one date, the onset; recordedDate must be the same day');
  const abatement = dayOf(r.abatementDateTime, 'Condition.abatementDateTime');
  if (abatement !== undefined && clinical !== 'resolved')
    throw notHeld('Condition.abatementDateTime', 'The record holds an end date of a resolved condition only');
  const coded = codedConcept(r.code, 'Condition.code', contract.coded.systems);
  // An entered-in-error Condition carries no clinical status (FHIR con-5): the record keeps its row as active.
  const status = chronic
    ? 'Chronic'
    : clinical === 'resolved'
      ? 'Resolved'
      : clinical === 'active' || verification === 'entered-in-error'
        ? 'Active'
        : undefined;
  return {
    condition: coded.words,
    code: coded.code,
    codeSystem: coded.codeSystem,
    codings: coded.codings,
    status,
    diagnosedDate: onset ?? recorded,
    resolvedDate: abatement ?? null,
    description: noteText(r.note, 'Condition.note') ?? null,
    doctor: displayOf(r.asserter, 'Condition.asserter') ?? by.name,
    facility: facility ?? by.facility,
  };
}

export const diagnosesKind = defineServerKind<'diagnoses'>({
  contract,
  table: diagnosesTable,
  // The same condition still open on the record.
  check: (scope, input, editing) =>
    duplicateEntryWarnings(
      scope,
      diagnosesTable,
      input,
      input.condition,
      input.status === 'Resolved' ? undefined : ne(diagnosesTable.status, 'Resolved'),
      editing,
    ),
  fhir: {
    type: 'Condition',
    rowId: rowIdOf,
    resources: (d) => {
      const inError = errorStatusOf(d);
      return [
        {
          resourceType: 'Condition',
          id: String(d.id),
          ...(d.status === 'Chronic' || d.facility
            ? {
                extension: [
                  ...(d.status === 'Chronic' ? [{ url: CHRONIC_EXTENSION, valueBoolean: true }] : []),
                  ...(d.facility ? [{ url: FACILITY_EXTENSION, valueString: d.facility }] : []),
                ],
              }
            : {}),
          // FHIR con-5: an entered-in-error Condition has no clinical status.
          ...(inError === 'entered-in-error' ? {} : { clinicalStatus: coding(CLINICAL, TO_CLINICAL[d.status] ?? 'active') }),
          verificationStatus: coding(VERIFICATION, inError ?? 'confirmed'),
          category: [coding(CATEGORY, 'problem-list-item')],
          code: concept(d.condition, d),
          subject: patientReference(d.patientId),
          onsetDateTime: d.diagnosedDate,
          // FHIR con-4: an abatement goes with an inactive clinical status, which an entered-in-error Condition has none of.
          ...(d.status === 'Resolved' && d.resolvedDate && inError !== 'entered-in-error' ? { abatementDateTime: d.resolvedDate } : {}),
          recordedDate: d.diagnosedDate,
          asserter: named(d.doctor),
          ...(d.description ? { note: [{ text: d.description }] } : {}),
        },
      ];
    },
    search: null,
    create: {
      patientField: 'subject',
      accepts: () => true,
      elements: [
        'extension',
        'clinicalStatus',
        'verificationStatus',
        'category',
        'code',
        'subject',
        'onsetDateTime',
        'abatementDateTime',
        'recordedDate',
        'asserter',
        'note',
      ],
      input: conditionInput,
      enteredInError: (r) => {
        const code = firstCode(r.verificationStatus);
        return code === 'refuted' ? REFUTED_REASON : code === 'entered-in-error' ? ENTERED_IN_ERROR_REASON : null;
      },
      expressions: {
        condition: 'Condition.code',
        code: 'Condition.code.coding',
        codeSystem: 'Condition.code.coding',
        codings: 'Condition.code.coding',
        status: 'Condition.clinicalStatus',
        diagnosedDate: 'Condition.onsetDateTime',
        resolvedDate: 'Condition.abatementDateTime',
        description: 'Condition.note',
        doctor: 'Condition.asserter',
        facility: 'Condition.extension',
      },
    },
    ips: { code: '11450-4', title: 'Problem list' },
  },
});
