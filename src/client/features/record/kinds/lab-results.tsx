// Laboratory results on the client (issue 22 item 2): the test from the LOINC catalogue by type-ahead (a pick fills
// in its short name, unit and reference range), the value as a number when it reads as one and as text otherwise ("Positive"),
// Final first. The abnormal flag the server computes is a badge: H and L amber, HH and LL destructive, read out in
// words. On the dashboard an HH or LL among each test's latest result is a critical alert, and the latest results
// have a panel; the portal shows the flags in plain words.
import type { TFunction } from '../../../lib/translator';
import type { LabResultRow } from '../../../../contracts/kinds';
import { LAB_RESULT_STATUSES, type AbnormalFlag } from '../../../../contracts/kinds/lab-results';
import { Badge } from '../../../components/ui/badge';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { day, present, type Badged, type KindView } from './kind-view';

const CRITICAL: ReadonlySet<string> = new Set<AbnormalFlag>(['HH', 'LL']);

/** A number typed the usual ways ("5.4", "5,4", "-1", ".5"); anything else stays text. */
const NUMBER = /^[-+]?(\d+([.,]\d*)?|[.,]\d+)$/;

/** The value as the API takes it: a number when the text is one, else the text. */
export function labValue(text: unknown): number | string {
  if (typeof text !== 'string') return text as number;
  const v = text.trim();
  return NUMBER.test(v) ? Number(v.replace(',', '.')) : v;
}

/** "5.4 mmol/L". */
const valueWithUnit = (r: Pick<LabResultRow, 'value' | 'unit'>): string => (r.unit ? `${r.value} ${r.unit}` : String(r.value));

/** "3.5–5.1", "≥ 3.5", "≤ 5.1", or null without a range. */
export function rangeText(low: number | null, high: number | null): string | null {
  if (low !== null && high !== null) return `${low}–${high}`;
  if (low !== null) return `≥ ${low}`;
  if (high !== null) return `≤ ${high}`;
  return null;
}

/** The flag's badge in the record: its letter, read out as a word. */
export function flagBadge(flag: AbnormalFlag, t: TFunction): Badged {
  return { text: flag, label: t(`record:flags.${flag}`), tone: CRITICAL.has(flag) ? 'destructive' : 'yellow' };
}

function FlagBadge({ flag, t }: { flag: AbnormalFlag; t: TFunction }): React.JSX.Element {
  const b = flagBadge(flag, t);
  return (
    <Badge tone={b.tone} title={b.label}>
      <span aria-hidden="true">{b.text}</span>
      <span className="sr-only">{b.label}</span>
    </Badge>
  );
}

export const labResults: KindView<'lab-results'> = {
  kind: 'lab-results',
  fields: [
    { name: 'name', label: 'labTest', control: 'coded', required: true },
    { name: 'value', label: 'labValue', control: 'text', required: true, placeholder: true, half: true },
    { name: 'unit', control: 'text', placeholder: true, half: true },
    { name: 'referenceLow', control: 'number', step: 'any', half: true },
    { name: 'referenceHigh', control: 'number', step: 'any', half: true },
    { name: 'collectedDate', control: 'date', required: true, half: true },
    { name: 'status', label: 'labStatus', control: 'select', required: true, options: LAB_RESULT_STATUSES, labels: 'status', half: true },
    { name: 'facility', control: 'text', required: true },
  ],
  toPayload: (payload) => ({ ...payload, value: labValue(payload.value) }),
  // The test's short name reads better in lists and alerts than LOINC's long one; the code says exactly which test.
  onPick: (entry) => ({
    ...(entry.shortName ? { name: entry.shortName } : {}),
    ...(entry.unit ? { unit: entry.unit } : {}),
    ...(entry.referenceLow !== undefined && entry.referenceLow !== null ? { referenceLow: String(entry.referenceLow) } : {}),
    ...(entry.referenceHigh !== undefined && entry.referenceHigh !== null ? { referenceHigh: String(entry.referenceHigh) } : {}),
  }),
  item: (r, t) => {
    const range = rangeText(r.referenceLow, r.referenceHigh);
    return {
      title: r.name,
      ...(r.abnormalFlag ? { badge: flagBadge(r.abnormalFlag, t) } : {}),
      lines: present([
        [valueWithUnit(r), range && t('record:item.referenceRange', { range })].filter(Boolean).join(' · '),
        [
          t('record:item.collected', { date: formatDate(r.collectedDate) }),
          t(`record:status.${r.status}`, { defaultValue: r.status }),
        ].join(' · '),
        t('record:item.enteredBy', { name: r.enteredBy, facility: r.facility, date: formatDateTime(r.enteredAt) }),
      ]),
    };
  },
  portal: {
    counted: true,
    item: (r, t) => ({
      title: r.name,
      ...(r.abnormalFlag
        ? { badge: { text: t(`portal:flags.${r.abnormalFlag}`), tone: CRITICAL.has(r.abnormalFlag) ? 'destructive' : 'yellow' } }
        : {}),
      fields: [
        { label: t('portal:fields.result'), value: valueWithUnit(r) },
        { label: t('portal:fields.normalRange'), value: rangeText(r.referenceLow, r.referenceHigh) },
        { label: t('portal:fields.collected'), value: day(r.collectedDate) },
        { label: t('portal:fields.resultStatus'), value: t(`portal:resultStatus.${r.status}`, { defaultValue: r.status }) },
        { label: t('portal:fields.facility'), value: r.facility },
      ],
    }),
  },
  dashboard: {
    alert: ({ key, params }, t) =>
      t(`record:alerts.${key}`, { ...params, flag: params?.flag ? t(`record:flags.${String(params.flag)}`) : '' }),
    part: ({ rows }, t) => (
      <ul className="flex flex-col gap-2 text-sm">
        {rows.map((r) => (
          <li key={r.id} className="flex items-start justify-between gap-2">
            <div className="min-w-0">
              <p className="break-words font-semibold">{r.name}</p>
              <p className="text-slate-600">
                {valueWithUnit(r)} · {formatDate(r.collectedDate)}
              </p>
            </div>
            {r.abnormalFlag ? <FlagBadge flag={r.abnormalFlag} t={t} /> : null}
          </li>
        ))}
      </ul>
    ),
  },
};
