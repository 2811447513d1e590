// Contraindicated and serious medicine-check warnings a clinician confirmed (decision 043): one row per warning, in
// the same transaction as the add or edit it allowed, with the override reason a contraindicated one needs. The
// audit row of the change names the codes (in the chain); the reason text is here, for the privacy/quality review and
// the monthly report. Clinical content in clear, like the record tables.
import { index, integer, jsonb, pgTable, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { patientRef } from '../../../db/schema';

export const medicineCheckOverrides = pgTable(
  'medicine_check_overrides',
  {
    id: serial('id').primaryKey(),
    patientId: patientRef(),
    kind: varchar('kind', { length: 32 }).notNull(),
    itemId: integer('item_id').notNull(),
    itemVersion: integer('item_version').notNull(),
    code: varchar('code', { length: 64 }).notNull(),
    tier: varchar('tier', { length: 16 }).notNull(),
    /** The warning's params: both substances, the statement, the rule, the source and the knowledge version. */
    params: jsonb('params').notNull(),
    reason: varchar('reason', { length: 500 }),
    userId: text('user_id').notNull(),
    byName: varchar('by_name', { length: 200 }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('medicine_check_overrides_at_idx').on(t.at), index('medicine_check_overrides_patient_idx').on(t.patientId)],
);
