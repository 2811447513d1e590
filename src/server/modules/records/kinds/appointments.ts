// Appointments on the server: the table and FHIR Appointment (read and search; not created through FHIR).
import { date, index, uniqueIndex, pgTable, serial, text as textColumn, varchar } from 'drizzle-orm/pg-core';
import { appointments as contract } from '../../../../contracts/kinds/appointments';
import { patientRef } from '../../../db/schema';
import { LOCAL_OFFSET, named, patientReference, rowIdOf, text } from '../../../fhir/resources';
import { defineServerKind } from './server-kind';
import { versionedColumns } from './versioned-columns';

export const appointmentsTable = pgTable(
  'appointments',
  {
    id: serial('id').primaryKey(),
    patientId: patientRef(),
    ...versionedColumns(),
    type: varchar('type', { length: 200 }).notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    time: varchar('time', { length: 5 }),
    findings: textColumn('findings'),
    status: varchar('status', { length: 16 }).notNull().default('Scheduled'),
    doctor: varchar('doctor', { length: 200 }).notNull(),
    facility: varchar('facility', { length: 200 }).notNull(),
  },
  (t) => [
    index('appointments_patient_idx').on(t.patientId),
    uniqueIndex('appointments_uuid_idx').on(t.uuid),
    // The facility's appointments of the next days, for offline clinic mode (migration 0060, decision 061).
    index('appointments_facility_date_idx').on(t.facility, t.date),
  ],
);

const STATUS: Record<string, string> = { Scheduled: 'booked', Completed: 'fulfilled', Cancelled: 'cancelled' };

export const appointmentsKind = defineServerKind<'appointments'>({
  contract,
  table: appointmentsTable,
  fhir: {
    type: 'Appointment',
    rowId: rowIdOf,
    // An appointment with a time starts (and, as far as we know, ends) then; one without a time spans its day.
    resources: (a) => {
      const start = a.time ? `${a.date}T${a.time.slice(0, 5)}:00${LOCAL_OFFSET}` : `${a.date}T00:00:00${LOCAL_OFFSET}`;
      return [
        {
          resourceType: 'Appointment',
          id: String(a.id),
          status: STATUS[a.status] ?? 'booked',
          serviceType: [text(a.type)],
          description: a.type,
          start,
          end: a.time ? start : `${a.date}T23:59:59${LOCAL_OFFSET}`,
          ...(a.findings ? { comment: a.findings } : {}),
          participant: [
            { actor: patientReference(a.patientId), status: 'accepted' },
            { actor: named(a.doctor), status: 'accepted' },
            { actor: { display: a.facility }, status: 'accepted' },
          ],
        },
      ];
    },
    search: null,
    create: null,
    // No IPS section holds appointments (Plan of care is for care plans): the summary leaves them out (decision 053).
    ips: null,
  },
});
