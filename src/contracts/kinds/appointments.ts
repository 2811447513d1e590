// Appointments (SPEC §3, §5; DESIGN.md §9: with an optional time, HH:mm).
import { z } from 'zod';
import { PORTAL_HIDDEN, versionedRowShape } from './versioned';
import { textOrNull } from '../fields';
import { addDays } from '../calendar';
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

/** SPEC §9 windows and list sizes. */
export const APPOINTMENT_WINDOWS = { recentDays: 30, upcomingDays: 30, recentVisits: 3, upcoming: 4 } as const;

type Visit = { id: number; date: string; time: string | null; status: string };
const byDateTime = (a: Visit, b: Visit): number =>
  a.date.localeCompare(b.date) || (a.time ?? '99:99').localeCompare(b.time ?? '99:99') || a.id - b.id;

/** Visits of the last 30 days: dated from today minus 30 days to today, inclusive, and not cancelled; newest first. */
export function recentVisits<V extends Visit>(appointments: readonly V[], today: string): V[] {
  const from = addDays(today, -APPOINTMENT_WINDOWS.recentDays);
  return appointments.filter((a) => a.date >= from && a.date <= today && a.status !== 'Cancelled').sort((a, b) => byDateTime(b, a));
}

/** Scheduled appointments of the next 30 days: dated from today to today plus 30 days, inclusive; soonest first. */
export function upcomingAppointments<V extends Visit>(appointments: readonly V[], today: string): V[] {
  const to = addDays(today, APPOINTMENT_WINDOWS.upcomingDays);
  return appointments.filter((a) => a.date >= today && a.date <= to && a.status === 'Scheduled').sort(byDateTime);
}

const row = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  ...versionedRowShape,
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
  portal: { row: row.omit({ patientId: true, ...PORTAL_HIDDEN }), from: ({ patientId: _p, ...a }) => a },
  dashboard: {
    counters: [{ key: 'recentVisits', position: 3, hint: true, count: (rows, today) => recentVisits(rows, today).length }],
    panels: [
      {
        panel: 'recentActivity',
        empty: 'noRecentActivity',
        position: 1,
        rows: (rows, today) => recentVisits(rows, today).slice(0, APPOINTMENT_WINDOWS.recentVisits),
      },
      {
        panel: 'upcoming',
        empty: 'noUpcoming',
        position: 3,
        rows: (rows, today) => upcomingAppointments(rows, today).slice(0, APPOINTMENT_WINDOWS.upcoming),
      },
    ],
  },
});
export type AppointmentRow = z.infer<typeof row>;
