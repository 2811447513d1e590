// Appointments on the client (SPEC §2-§5): Scheduled first; the dashboard's recent visits (counter and panel) and
// upcoming appointments.
import { APPOINTMENT_STATUSES } from '../../../../contracts/kinds/appointments';
import { formatDate } from '../../../lib/dates';
import { day, portalBadge, present, recordBadge, type KindView, type StatusColours } from './kind-view';

const colours: StatusColours = { tones: { scheduled: 'blue', completed: 'green', cancelled: 'gray' }, otherwise: 'gray' };

export const appointments: KindView<'appointments'> = {
  kind: 'appointments',
  fields: [
    { name: 'type', control: 'text', required: true, placeholder: true },
    { name: 'date', control: 'date', required: true, half: true },
    { name: 'time', control: 'time', half: true },
    { name: 'status', control: 'select', required: true, options: APPOINTMENT_STATUSES, labels: 'status' },
    { name: 'doctor', control: 'text', required: true, half: true },
    { name: 'facility', control: 'text', required: true, half: true },
    { name: 'findings', control: 'textarea' },
  ],
  item: (a, t) => ({
    title: a.type,
    badge: recordBadge(t, 'status', a.status, colours),
    lines: present([
      `${formatDate(a.date)}${a.time ? ` ${a.time}` : ''}`,
      t('record:item.byAt', { doctor: a.doctor, facility: a.facility }),
      a.findings,
    ]),
  }),
  portal: {
    counted: true,
    item: (a, t) => ({
      title: a.type,
      badge: portalBadge(t, a.status, colours),
      fields: [
        { label: t('portal:fields.date'), value: day(a.date) },
        { label: t('portal:fields.time'), value: a.time },
        { label: t('portal:fields.doctor'), value: a.doctor },
        { label: t('portal:fields.facility'), value: a.facility },
        { label: t('portal:fields.findings'), value: a.findings },
      ],
    }),
  },
  dashboard: {
    part: ({ panel, rows }, t) => (
      <ul className="flex flex-col gap-2 text-sm">
        {rows.map((a) => (
          <li key={a.id}>
            <p className="font-semibold">{a.type}</p>
            <p className="text-slate-600">
              {panel === 'upcoming'
                ? `${t('record:dashboard.provider', { name: a.doctor })} · ${formatDate(a.date)}${a.time ? ` ${a.time}` : ''}`
                : `${formatDate(a.date)} · ${t('record:item.byAt', { doctor: a.doctor, facility: a.facility })}`}
            </p>
          </li>
        ))}
      </ul>
    ),
  },
};
