// Medications on the client (SPEC §2-§5): the medicine from the ATC catalogue by type-ahead (free text allowed),
// Active first; an active medication is green; the dashboard's current medications (counter and safety panel).
import { MEDICATION_STATUSES } from '../../../../contracts/kinds/medications';
import { formatDate } from '../../../lib/dates';
import { day, portalBadge, present, recordBadge, type KindView, type StatusColours } from './kind-view';

const colours: StatusColours = { tones: { active: 'green', completed: 'gray', discontinued: 'gray' }, otherwise: 'gray' };

export const medications: KindView<'medications'> = {
  kind: 'medications',
  fields: [
    { name: 'name', control: 'coded', required: true },
    { name: 'status', control: 'select', required: true, options: MEDICATION_STATUSES, labels: 'status' },
    { name: 'dosage', control: 'text', required: true, placeholder: true, half: true },
    { name: 'frequency', control: 'text', required: true, placeholder: true, half: true },
    { name: 'purpose', control: 'text', required: true },
    { name: 'prescribedDate', control: 'date', required: true, half: true },
    { name: 'discontinuedDate', control: 'date', half: true },
    { name: 'prescribedBy', control: 'text', required: true, half: true },
    { name: 'nextReview', control: 'date', half: true },
  ],
  item: (m, t) => ({
    title: `${m.name} - ${m.dosage}`,
    badge: recordBadge(t, 'status', m.status, colours),
    lines: present([
      `${m.frequency} · ${m.purpose}`,
      t('record:item.prescribed', { date: formatDate(m.prescribedDate), doctor: m.prescribedBy }),
      m.discontinuedDate && t('record:item.discontinued', { date: formatDate(m.discontinuedDate) }),
      m.nextReview && t('record:item.nextReview', { date: formatDate(m.nextReview) }),
    ]),
  }),
  portal: {
    counted: true,
    item: (m, t) => ({
      title: m.medication,
      badge: portalBadge(t, m.status, colours),
      fields: [
        { label: t('portal:fields.dosage'), value: m.dosage },
        { label: t('portal:fields.frequency'), value: m.frequency },
        { label: t('portal:fields.purpose'), value: m.purpose },
        { label: t('portal:fields.doctor'), value: m.doctor },
        { label: t('portal:fields.prescribed'), value: day(m.prescribedDate) },
        { label: t('portal:fields.discontinued'), value: day(m.discontinuedDate) },
        { label: t('portal:fields.nextReview'), value: day(m.nextReview) },
      ],
    }),
  },
  dashboard: {
    part: ({ heading, rows }, t) => (
      <div>
        <h3 className="font-semibold">{t(`record:dashboard.${heading}`)}</h3>
        <ul className="mt-1 flex flex-col gap-1">
          {rows.map((m) => (
            <li key={m.id}>
              {m.name} <span className="text-slate-600">({m.dosage})</span>
            </li>
          ))}
        </ul>
      </div>
    ),
  },
};
