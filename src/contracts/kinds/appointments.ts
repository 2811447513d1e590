// Appointments (SPEC §3, §5; DESIGN.md §9: with an optional time, HH:mm).
import { z } from 'zod';
import { textOrNull } from '../fields';
import { choice, day, optionalTime, requiredDate, requiredText, type Now } from './fields';
import { defineKind } from './kind-contract';

export const APPOINTMENT_STATUSES = ['Scheduled', 'Completed', 'Cancelled'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

const input = (now: Now) =>
  z.strictObject({
    type: requiredText(200, 'validation:typeRequired'),
    date: requiredDate(now, 'validation:dateRequired', 'any'),
    time: optionalTime(),
    status: choice(APPOINTMENT_STATUSES, 'validation:statusRequired'),
    doctor: requiredText(200, 'validation:doctorRequired'),
    facility: requiredText(200, 'validation:facilityRequired'),
    findings: textOrNull(2000),
  });

const row = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  type: z.string(),
  date: day,
  /** HH:mm, when known. */
  time: z.string().nullable(),
  findings: z.string().nullable(),
  status: z.string(),
  doctor: z.string(),
  facility: z.string(),
});

export const appointments = defineKind({
  kind: 'appointments',
  resourceType: 'APPOINTMENT',
  notFound: 'Appointment not found',
  input,
  row,
  order: ['date', 'time', 'id'],
  coded: null,
  portal: { row: row.omit({ patientId: true }), from: ({ patientId: _p, ...a }) => a },
});
export type AppointmentRow = z.infer<typeof row>;
