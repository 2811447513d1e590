// Vaccines on the client (SPEC §2-§5): the vaccine from the Namibian schedule's catalogue by type-ahead (free text
// allowed); no status.
import { formatDate } from '../../../lib/dates';
import { day, present, type KindView } from './kind-view';

export const vaccines: KindView<'vaccines'> = {
  kind: 'vaccines',
  fields: [
    { name: 'vaccine', control: 'coded', required: true },
    { name: 'date', control: 'date', required: true, half: true },
    { name: 'dose', control: 'text', required: true, placeholder: true, half: true },
    { name: 'facility', control: 'text', required: true },
    { name: 'nextDue', control: 'date', half: true },
    { name: 'batchNumber', control: 'text', half: true },
  ],
  item: (v, t) => ({
    title: v.vaccine,
    lines: present([
      formatDate(v.date),
      t('record:item.doseAt', { dose: v.dose, facility: v.facility }),
      v.nextDue && t('record:item.nextDue', { date: formatDate(v.nextDue) }),
      v.batchNumber && t('record:item.batch', { batch: v.batchNumber }),
    ]),
  }),
  portal: {
    counted: true,
    item: (v, t) => ({
      title: v.vaccine,
      fields: [
        { label: t('portal:fields.date'), value: day(v.date) },
        { label: t('portal:fields.dose'), value: v.dose },
        { label: t('portal:fields.facility'), value: v.facility },
        { label: t('portal:fields.batchNumber'), value: v.batchNumber },
        { label: t('portal:fields.nextDue'), value: day(v.nextDue) },
      ],
    }),
  },
};
