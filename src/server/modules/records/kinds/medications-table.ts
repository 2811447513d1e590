// The medications table (its own file so the medicine checks can read it without an import cycle between the kinds).
import { date, index, uniqueIndex, pgTable, serial, varchar } from 'drizzle-orm/pg-core';
import { patientRef } from '../../../db/schema';
import { codedColumns } from './coded-columns';
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
