// The columns every record table has for versions (contracts/kinds/versioned.ts; issue 23, decision 041): the public
// UUID, the version, who changed it last and when, entered in error (when, by whom, why), the per-row flag the
// presenter reads (`sealed`), and the transaction that last wrote the row (`change_xid`, set by a trigger on every
// insert and update: what the delta read compares with its cursor).
import { sql } from 'drizzle-orm';
import { boolean, customType, integer, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';

/** PostgreSQL's 64-bit transaction id, as text (it exceeds JavaScript's safe integers in principle). */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

export const versionedColumns = () => ({
  uuid: uuid('uuid')
    .notNull()
    .default(sql`gen_random_uuid()`),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: varchar('updated_by', { length: 200 }),
  enteredInErrorAt: timestamp('entered_in_error_at', { withTimezone: true }),
  enteredInErrorBy: varchar('entered_in_error_by', { length: 200 }),
  enteredInErrorReason: varchar('entered_in_error_reason', { length: 500 }),
  sealed: boolean('sealed').notNull().default(false),
  changeXid: xid8('change_xid')
    .notNull()
    .default(sql`pg_current_xact_id()`),
});
