// Vital signs on the client (DESIGN.md §9): four measures, blank ones sent as null; the source of the dashboard's
// critical alerts (SPEC §9) and its latest reading. Not in the portal.
import type { TFunction } from '../../../lib/translator';
import type { VitalsRow } from '../../../../contracts/kinds';
import { formatDateTime } from '../../../lib/dates';
import { present, type KindView } from './kind-view';

/** "128/84 mmHg · 36.8 °C · 72.5 kg": the measures a reading holds. */
export function measuresLine(v: VitalsRow, t: TFunction): string {
  return present([
    v.systolic !== null && v.diastolic !== null && t('record:item.bloodPressure', { systolic: v.systolic, diastolic: v.diastolic }),
    v.temperature !== null && t('record:item.temperature', { value: v.temperature }),
    v.weight !== null && t('record:item.weight', { value: v.weight }),
  ]).join(' · ');
}

const recordedBy = (v: VitalsRow, t: TFunction): string =>
  t('record:item.recordedBy', { date: formatDateTime(v.recordedAt), name: v.recordedBy });

export const vitals: KindView<'vitals'> = {
  kind: 'vitals',
  fields: [
    { name: 'systolic', control: 'number', step: '1', half: true },
    { name: 'diastolic', control: 'number', step: '1', half: true },
    { name: 'temperature', control: 'number', step: '0.1', half: true },
    { name: 'weight', control: 'number', step: '0.1', half: true },
  ],
  item: (v, t) => ({ title: measuresLine(v, t) || formatDateTime(v.recordedAt), lines: [recordedBy(v, t)] }),
  portal: null,
  dashboard: {
    part: ({ rows: [latest] }, t) =>
      latest ? (
        <div className="text-sm">
          <p className="font-semibold">{measuresLine(latest, t)}</p>
          <p className="text-slate-600">{recordedBy(latest, t)}</p>
        </div>
      ) : null,
  },
};
