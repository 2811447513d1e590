// Vaccines on the server: the table, the duplicate warning (the same vaccine on the same day), the defaulter index kept
// current, and FHIR Immunization (CVX coded when picked from the catalogue).
import { date, index, uniqueIndex, pgTable, serial, varchar } from 'drizzle-orm/pg-core';
import { eq } from 'drizzle-orm';
import { vaccines as contract } from '../../../../contracts/kinds/vaccines';
import { patientRef } from '../../../db/schema';
import { validationFailed } from '../../../errors/app-error';
import { codedFrom, day, first, obj, str, words } from '../../../fhir/input';
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
        status: 'completed',
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
      input: (r, by) => {
        if (r.status !== 'completed')
          throw validationFailed([{ path: 'Immunization.status', message: 'Only completed immunizations are recorded' }]);
        const applied = first(r.protocolApplied);
        return {
          vaccine: words(r.vaccineCode),
          ...codedFrom(r.vaccineCode, contract.coded.systems),
          date: day(r.occurrenceDateTime),
          dose:
            str(applied.doseNumberString) ??
            (Number.isInteger(applied.doseNumberPositiveInt) ? `Dose ${String(applied.doseNumberPositiveInt)}` : undefined),
          facility: str(obj(r.location).display) ?? by.facility,
          batchNumber: str(r.lotNumber) ?? null,
        };
      },
      expressions: {
        vaccine: 'Immunization.vaccineCode',
        code: 'Immunization.vaccineCode.coding',
        codeSystem: 'Immunization.vaccineCode.coding',
        date: 'Immunization.occurrenceDateTime',
        dose: 'Immunization.protocolApplied.doseNumberString',
        facility: 'Immunization.location',
        batchNumber: 'Immunization.lotNumber',
      },
    },
    ips: { code: '11369-6', title: 'History of immunizations' },
  },
});
