// The allergies table (its own file so the medicine checks can read it without an import cycle between the kinds).
import { date, index, uniqueIndex, pgTable, serial, varchar } from 'drizzle-orm/pg-core';
import { patientRef } from '../../../db/schema';
import { codedColumns } from './coded-columns';
import { versionedColumns } from './versioned-columns';

export const allergiesTable = pgTable(
  'allergies',
  {
    id: serial('id').primaryKey(),
    patientId: patientRef(),
    ...versionedColumns(),
    allergen: varchar('allergen', { length: 200 }).notNull(),
    ...codedColumns(),
    reaction: varchar('reaction', { length: 500 }).notNull(),
    severity: varchar('severity', { length: 16 }).notNull().default('Mild'),
    reportedDate: date('reported_date', { mode: 'string' }).notNull(),
  },
  (t) => [index('allergies_patient_idx').on(t.patientId), uniqueIndex('allergies_uuid_idx').on(t.uuid)],
);
