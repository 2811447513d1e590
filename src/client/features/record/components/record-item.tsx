// How one entry of each list reads (SPEC §2): a title, a status or severity badge, and detail lines.
// Active diagnoses and Severe allergies get the destructive badge (SPEC §4).
import type { TFunction } from 'i18next';
import type { RecordKind, RecordRows } from '../../../../contracts/kinds';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { statusTone, type StatusKind } from '../../../components/ui/status-tone';
import { formatDate, formatDateTime } from '../../../lib/dates';

export interface ItemView {
  title: string;
  badge?: { text: string; tone: BadgeTone };
  lines: string[];
}

const present = (lines: (string | false | null | undefined)[]): string[] => lines.filter((l): l is string => Boolean(l));

export function itemView<K extends RecordKind>(kind: K, row: RecordRows[K], t: TFunction): ItemView {
  const status = (s: string, of: StatusKind) => ({ text: t(`record:status.${s}`, { defaultValue: s }), tone: statusTone(of, s) });
  switch (kind) {
    case 'diagnoses': {
      const d = row as RecordRows['diagnoses'];
      return {
        title: d.condition,
        badge: status(d.status, 'diagnosis'),
        lines: present([
          t('record:item.diagnosed', { date: formatDate(d.diagnosedDate) }),
          d.resolvedDate && t('record:item.resolved', { date: formatDate(d.resolvedDate) }),
          t('record:item.byAt', { doctor: d.doctor, facility: d.facility }),
          d.description,
        ]),
      };
    }
    case 'appointments': {
      const a = row as RecordRows['appointments'];
      return {
        title: a.type,
        badge: status(a.status, 'appointment'),
        lines: present([
          `${formatDate(a.date)}${a.time ? ` ${a.time}` : ''}`,
          t('record:item.byAt', { doctor: a.doctor, facility: a.facility }),
          a.findings,
        ]),
      };
    }
    case 'allergies': {
      const a = row as RecordRows['allergies'];
      const severity = { text: t(`record:severity.${a.severity}`, { defaultValue: a.severity }), tone: statusTone('allergy', a.severity) };
      return { title: a.allergen, badge: severity, lines: [a.reaction, t('record:item.reported', { date: formatDate(a.reportedDate) })] };
    }
    case 'medications': {
      const m = row as RecordRows['medications'];
      return {
        title: `${m.name} - ${m.dosage}`,
        badge: status(m.status, 'medication'),
        lines: present([
          `${m.frequency} · ${m.purpose}`,
          t('record:item.prescribed', { date: formatDate(m.prescribedDate), doctor: m.prescribedBy }),
          m.discontinuedDate && t('record:item.discontinued', { date: formatDate(m.discontinuedDate) }),
          m.nextReview && t('record:item.nextReview', { date: formatDate(m.nextReview) }),
        ]),
      };
    }
    case 'vaccines': {
      const v = row as RecordRows['vaccines'];
      return {
        title: v.vaccine,
        lines: present([
          formatDate(v.date),
          t('record:item.doseAt', { dose: v.dose, facility: v.facility }),
          v.nextDue && t('record:item.nextDue', { date: formatDate(v.nextDue) }),
          v.batchNumber && t('record:item.batch', { batch: v.batchNumber }),
        ]),
      };
    }
    default: {
      const v = row as RecordRows['vitals'];
      return {
        title: vitalsLine(v, t) || formatDateTime(v.recordedAt),
        lines: [t('record:item.recordedBy', { date: formatDateTime(v.recordedAt), name: v.recordedBy })],
      };
    }
  }
}

/** "128/84 mmHg · 36.8 °C · 72.5 kg": the measures a reading holds. */
export function vitalsLine(v: RecordRows['vitals'], t: TFunction): string {
  return present([
    v.systolic !== null && v.diastolic !== null && t('record:item.bloodPressure', { systolic: v.systolic, diastolic: v.diastolic }),
    v.temperature !== null && t('record:item.temperature', { value: v.temperature }),
    v.weight !== null && t('record:item.weight', { value: v.weight }),
  ]).join(' · ');
}

export function ItemBody({ view }: { view: ItemView }): React.JSX.Element {
  return (
    <div className="min-w-0 flex-1">
      <div className="flex flex-wrap items-center gap-2">
        <p className="font-semibold text-slate-900">{view.title}</p>
        {view.badge ? <Badge tone={view.badge.tone}>{view.badge.text}</Badge> : null}
      </div>
      {view.lines.map((line, i) => (
        <p key={i} className="text-sm text-slate-600">
          {line}
        </p>
      ))}
    </div>
  );
}
