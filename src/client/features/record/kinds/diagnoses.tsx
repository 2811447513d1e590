// Diagnoses on the client (SPEC §2-§5): the condition from ICD-10 by type-ahead (free text allowed), Active first;
// an active diagnosis stands out (destructive); counted on the dashboard as an active condition.
import { DIAGNOSIS_STATUSES } from '../../../../contracts/kinds/diagnoses';
import { formatDate } from '../../../lib/dates';
import { day, portalBadge, present, recordBadge, type KindView, type StatusColours } from './kind-view';

const colours: StatusColours = { tones: { active: 'destructive', chronic: 'yellow', resolved: 'green' }, otherwise: 'gray' };

export const diagnoses: KindView<'diagnoses'> = {
  kind: 'diagnoses',
  fields: [
    { name: 'condition', control: 'coded', required: true },
    { name: 'status', control: 'select', required: true, options: DIAGNOSIS_STATUSES, labels: 'status' },
    { name: 'diagnosedDate', control: 'date', required: true, half: true },
    { name: 'resolvedDate', control: 'date', half: true },
    { name: 'doctor', control: 'text', required: true, half: true },
    { name: 'facility', control: 'text', required: true, half: true },
    { name: 'description', control: 'textarea' },
  ],
  item: (d, t) => ({
    title: d.condition,
    badge: recordBadge(t, 'status', d.status, colours),
    lines: present([
      t('record:item.diagnosed', { date: formatDate(d.diagnosedDate) }),
      d.resolvedDate && t('record:item.resolved', { date: formatDate(d.resolvedDate) }),
      t('record:item.byAt', { doctor: d.doctor, facility: d.facility }),
      d.description,
    ]),
  }),
  portal: {
    counted: true,
    item: (d, t) => ({
      title: d.condition,
      badge: portalBadge(t, d.status, colours),
      fields: [
        { label: t('portal:fields.diagnosed'), value: day(d.diagnosedDate) },
        { label: t('portal:fields.resolved'), value: day(d.resolvedDate) },
        { label: t('portal:fields.doctor'), value: d.doctor },
        { label: t('portal:fields.facility'), value: d.facility },
      ],
      note: d.description,
    }),
  },
};
