// Vaccines on the server: the table, the duplicate warning (the same vaccine on the same day), the defaulter index kept
// current, and FHIR Immunization (CVX coded when picked from the catalogue).
import { date, index, uniqueIndex, pgTable, serial, varchar } from 'drizzle-orm/pg-core';
import { eq } from 'drizzle-orm';
import { vaccines as contract } from '../../../../contracts/kinds/vaccines';
import { patientRef } from '../../../db/schema';
import { str, type Json } from '../../../fhir/input';
import {
  codedConcept,
  dayOf,
  displayOf,
  ENTERED_IN_ERROR_REASON,
  errorStatusOf,
  notHeld,
  noteText,
  oneOf,
  onlyKeys,
  single,
} from '../../../fhir/faithful';
import { concept, named, patientReference, rowIdOf } from '../../../fhir/resources';
import { refreshImmunizationDue } from '../../immunization/immunization-due.service';
import { codedColumns } from './coded-columns';
import { duplicateEntryWarnings } from './duplicate-check.repository';
import { defineServerKind } from './server-kind';
import { versionedColumns } from './versioned-columns';

export const vaccinesTable = pgTable(
  'vaccines',
  {
    id: serial('id').primaryKey(),
    patientId: patientRef(),
    ...versionedColumns(),
    vaccine: varchar('vaccine', { length: 200 }).notNull(),
    ...codedColumns(),
    date: date('date', { mode: 'string' }).notNull(),
    dose: varchar('dose', { length: 50 }).notNull(),
    facility: varchar('facility', { length: 200 }).notNull(),
    nextDue: date('next_due', { mode: 'string' }),
    batchNumber: varchar('batch_number', { length: 64 }),
  },
  (t) => [index('vaccines_patient_idx').on(t.patientId), uniqueIndex('vaccines_uuid_idx').on(t.uuid)],
);

const NEXT_DUE = /^Next dose due: (\d{4}-\d{2}-\d{2})$/;

function immunizationInput(r: Json, by: { facility: string | undefined }): Json {
  oneOf(str(r.status), 'Immunization.status', ['completed', 'entered-in-error']);
  if (r.primarySource !== undefined && r.primarySource !== true)
    throw notHeld('Immunization.primarySource', 'The record holds doses given and recorded at the source (primarySource true)');
  const coded = codedConcept(r.vaccineCode, 'Immunization.vaccineCode', contract.coded.systems);
  const applied = onlyKeys(single(r.protocolApplied, 'Immunization.protocolApplied'), ['doseNumberString'], 'Immunization.protocolApplied');
  const note = noteText(r.note, 'Immunization.note');
  const due = note === undefined ? null : NEXT_DUE.exec(note);
  if (note !== undefined && !due)
    throw notHeld('Immunization.note', 'The record holds a note of the next dose only ("Next dose due: YYYY-MM-DD")');
  return {
    vaccine: coded.words,
    code: coded.code,
    codeSystem: coded.codeSystem,
    codings: coded.codings,
    date: dayOf(r.occurrenceDateTime, 'Immunization.occurrenceDateTime'),
    dose: str(applied.doseNumberString),
    facility: displayOf(r.location, 'Immunization.location') ?? by.facility,
    nextDue: due?.[1] ?? null,
    batchNumber: str(r.lotNumber) ?? null,
  };
}

export const vaccinesKind = defineServerKind<'vaccines'>({
  contract,
  table: vaccinesTable,
  check: (scope, input, editing) =>
    duplicateEntryWarnings(scope, vaccinesTable, input, input.vaccine, eq(vaccinesTable.date, input.date), editing),
  // The defaulter list's index (decision 044) follows every change of a patient's vaccines.
  afterChange: (scope) => refreshImmunizationDue(scope.tx, [scope.patientId], scope.now),
  fhir: {
    type: 'Immunization',
    rowId: rowIdOf,
    resources: (v) => [
      {
        resourceType: 'Immunization',
        id: String(v.id),
        status: errorStatusOf(v) ? 'entered-in-error' : 'completed',
        vaccineCode: concept(v.vaccine, v),
        patient: patientReference(v.patientId),
        occurrenceDateTime: v.date,
        primarySource: true,
        location: named(v.facility),
        ...(v.batchNumber ? { lotNumber: v.batchNumber } : {}),
        protocolApplied: [{ doseNumberString: v.dose }],
        ...(v.nextDue ? { note: [{ text: `Next dose due: ${v.nextDue}` }] } : {}),
      },
    ],
    search: null,
    create: {
      patientField: 'patient',
      accepts: () => true,
      elements: [
        'status',
        'vaccineCode',
        'patient',
        'occurrenceDateTime',
        'primarySource',
        'location',
        'lotNumber',
        'protocolApplied',
        'note',
      ],
      input: immunizationInput,
      enteredInError: (r) => (r.status === 'entered-in-error' ? ENTERED_IN_ERROR_REASON : null),
      expressions: {
        vaccine: 'Immunization.vaccineCode',
        code: 'Immunization.vaccineCode.coding',
        codeSystem: 'Immunization.vaccineCode.coding',
        codings: 'Immunization.vaccineCode.coding',
        date: 'Immunization.occurrenceDateTime',
        dose: 'Immunization.protocolApplied.doseNumberString',
        facility: 'Immunization.location',
        nextDue: 'Immunization.note',
        batchNumber: 'Immunization.lotNumber',
      },
    },
    ips: { code: '11369-6', title: 'History of immunizations' },
  },
});
