// Diagnoses on the server: the table, the duplicate warning, and FHIR Condition (problem-list item, ICD-10 coded).
import { date, index, uniqueIndex, pgTable, serial, text as textColumn, varchar } from 'drizzle-orm/pg-core';
import { ne } from 'drizzle-orm';
import { diagnoses as contract } from '../../../../contracts/kinds/diagnoses';
import { patientRef } from '../../../db/schema';
import { codedFrom, day, first, firstCode, obj, str, words } from '../../../fhir/input';
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
const TO_CLINICAL: Record<string, string> = { Active: 'active', Chronic: 'active', Resolved: 'resolved' };
const FROM_CLINICAL: Record<string, string> = {
  active: 'Active',
  recurrence: 'Active',
  relapse: 'Active',
  resolved: 'Resolved',
  inactive: 'Resolved',
  remission: 'Resolved',
};

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
    resources: (d) => [
      {
        resourceType: 'Condition',
        id: String(d.id),
        clinicalStatus: coding(CLINICAL, TO_CLINICAL[d.status] ?? 'active'),
        verificationStatus: coding('http://terminology.hl7.org/CodeSystem/condition-ver-status', 'confirmed'),
        category: [coding('http://terminology.hl7.org/CodeSystem/condition-category', 'problem-list-item')],
        code: concept(d.condition, d),
        subject: patientReference(d.patientId),
        onsetDateTime: d.diagnosedDate,
        ...(d.status === 'Resolved' && d.resolvedDate ? { abatementDateTime: d.resolvedDate } : {}),
        recordedDate: d.diagnosedDate,
        asserter: named(d.doctor),
        note: [
          {
            text: [d.status === 'Chronic' ? 'Chronic condition.' : '', d.description ?? '', `Facility: ${d.facility}`]
              .filter(Boolean)
              .join(' '),
          },
        ],
      },
    ],
    search: null,
    create: {
      patientField: 'subject',
      accepts: () => true,
      input: (r, by) => ({
        condition: words(r.code),
        ...codedFrom(r.code, contract.coded.systems),
        status: FROM_CLINICAL[firstCode(r.clinicalStatus) ?? ''] ?? firstCode(r.clinicalStatus),
        diagnosedDate: day(r.onsetDateTime) ?? day(r.recordedDate),
        resolvedDate: day(r.abatementDateTime) ?? null,
        description: str(first(r.note).text) ?? null,
        doctor: str(obj(r.asserter).display) ?? str(obj(r.recorder).display) ?? by.name,
        facility: by.facility,
      }),
      expressions: {
        condition: 'Condition.code',
        code: 'Condition.code.coding',
        codeSystem: 'Condition.code.coding',
        status: 'Condition.clinicalStatus',
        diagnosedDate: 'Condition.onsetDateTime',
        resolvedDate: 'Condition.abatementDateTime',
        description: 'Condition.note',
        doctor: 'Condition.asserter',
        facility: 'Condition',
      },
    },
    ips: { code: '11450-4', title: 'Problem list' },
  },
});
