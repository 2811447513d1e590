// Medications on the server: the table, the duplicate warning (the same medicine still active), and FHIR
// MedicationStatement (ATC coded when picked from the catalogue).
import { date, index, uniqueIndex, pgTable, serial, varchar } from 'drizzle-orm/pg-core';
import { eq } from 'drizzle-orm';
import { medications as contract } from '../../../../contracts/kinds/medications';
import { patientRef } from '../../../db/schema';
import { codedFrom, day, first, obj, str, words } from '../../../fhir/input';
import { concept, named, patientReference, rowIdOf, text } from '../../../fhir/resources';
import { codedColumns } from './coded-columns';
import { duplicateEntryWarnings } from './duplicate-check.repository';
import { defineServerKind } from './server-kind';
import { versionedColumns } from './versioned-columns';

export const medicationsTable = pgTable(
  'medications',
  {
    id: serial('id').primaryKey(),
    patientId: patientRef(),
    ...versionedColumns(),
    name: varchar('name', { length: 100 }).notNull(),
    ...codedColumns(),
    dosage: varchar('dosage', { length: 50 }).notNull(),
    frequency: varchar('frequency', { length: 100 }).notNull(),
    purpose: varchar('purpose', { length: 200 }).notNull(),
    status: varchar('status', { length: 16 }).notNull().default('Active'),
    prescribedDate: date('prescribed_date', { mode: 'string' }).notNull(),
    discontinuedDate: date('discontinued_date', { mode: 'string' }),
    prescribedBy: varchar('prescribed_by', { length: 200 }).notNull(),
    nextReview: date('next_review', { mode: 'string' }),
  },
  (t) => [index('medications_patient_idx').on(t.patientId), uniqueIndex('medications_uuid_idx').on(t.uuid)],
);

const TO_STATUS: Record<string, string> = { Active: 'active', Discontinued: 'stopped', Completed: 'completed' };
const FROM_STATUS: Record<string, string> = { active: 'Active', stopped: 'Discontinued', completed: 'Completed' };

export const medicationsKind = defineServerKind<'medications'>({
  contract,
  table: medicationsTable,
  check: (scope, input, editing) =>
    input.status === 'Active'
      ? duplicateEntryWarnings(scope, medicationsTable, input, input.name, eq(medicationsTable.status, 'Active'), editing)
      : Promise.resolve([]),
  fhir: {
    type: 'MedicationStatement',
    rowId: rowIdOf,
    resources: (m) => [
      {
        resourceType: 'MedicationStatement',
        id: String(m.id),
        status: TO_STATUS[m.status] ?? 'unknown',
        medicationCodeableConcept: concept(m.name, m),
        subject: patientReference(m.patientId),
        effectivePeriod: { start: m.prescribedDate, ...(m.discontinuedDate ? { end: m.discontinuedDate } : {}) },
        dateAsserted: m.prescribedDate,
        informationSource: named(m.prescribedBy),
        reasonCode: [text(m.purpose)],
        dosage: [{ text: `${m.dosage}, ${m.frequency}` }],
        ...(m.nextReview ? { note: [{ text: `Next review: ${m.nextReview}` }] } : {}),
      },
    ],
    search: null,
    create: {
      patientField: 'subject',
      accepts: () => true,
      input: (r, by) => {
        const dosageText = str(first(r.dosage).text) ?? '';
        const split = dosageText.indexOf(', ');
        const period = obj(r.effectivePeriod);
        return {
          name: words(r.medicationCodeableConcept),
          ...codedFrom(r.medicationCodeableConcept, contract.coded.systems),
          status: FROM_STATUS[str(r.status) ?? ''] ?? str(r.status),
          dosage: split > 0 ? dosageText.slice(0, split) : dosageText,
          frequency: split > 0 ? dosageText.slice(split + 2) : words(obj(first(r.dosage).timing).code),
          purpose: words(first(r.reasonCode)),
          prescribedDate: day(period.start) ?? day(r.effectiveDateTime) ?? day(r.dateAsserted),
          discontinuedDate: day(period.end) ?? null,
          prescribedBy: str(obj(r.informationSource).display) ?? by.name,
          nextReview: null,
        };
      },
      expressions: {
        name: 'MedicationStatement.medicationCodeableConcept',
        code: 'MedicationStatement.medicationCodeableConcept.coding',
        codeSystem: 'MedicationStatement.medicationCodeableConcept.coding',
        status: 'MedicationStatement.status',
        dosage: 'MedicationStatement.dosage.text',
        frequency: 'MedicationStatement.dosage.text',
        purpose: 'MedicationStatement.reasonCode',
        prescribedDate: 'MedicationStatement.effectivePeriod.start',
        discontinuedDate: 'MedicationStatement.effectivePeriod.end',
        prescribedBy: 'MedicationStatement.informationSource',
        nextReview: 'MedicationStatement.note',
      },
    },
    ips: { code: '10160-0', title: 'Medication summary' },
  },
});
