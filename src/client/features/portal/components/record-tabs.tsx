// The five clinical tabs of the portal (SPEC §2): read-only lists, newest first, dates en-GB, empty messages.
import { useTranslation } from 'react-i18next';
import type { PortalAllergy, PortalAppointment, PortalDiagnosis, PortalMedication, PortalVaccine } from '../../../../contracts/portal';
import { formatDate } from '../../../lib/dates';
import { RecordItem, RecordList } from './record-item';
import { StatusBadge } from './status-badge';

const day = (d: string | null): string | null => (d ? formatDate(d) : null);

export function DiagnosesTab({ items }: { items: PortalDiagnosis[] }): React.JSX.Element {
  const { t } = useTranslation('portal');
  return (
    <RecordList empty={t('empty.diagnoses')} count={items.length}>
      {items.map((d) => (
        <RecordItem
          key={d.id}
          title={d.condition}
          badge={<StatusBadge kind="diagnosis" value={d.status} />}
          fields={[
            { label: t('fields.diagnosed'), value: day(d.diagnosedDate) },
            { label: t('fields.resolved'), value: day(d.resolvedDate) },
            { label: t('fields.doctor'), value: d.doctor },
            { label: t('fields.facility'), value: d.facility },
          ]}
        >
          {d.description ? <p className="mt-2 break-words text-sm text-slate-700">{d.description}</p> : null}
        </RecordItem>
      ))}
    </RecordList>
  );
}

export function AppointmentsTab({ items }: { items: PortalAppointment[] }): React.JSX.Element {
  const { t } = useTranslation('portal');
  return (
    <RecordList empty={t('empty.appointments')} count={items.length}>
      {items.map((a) => (
        <RecordItem
          key={a.id}
          title={a.type}
          badge={<StatusBadge kind="appointment" value={a.status} />}
          fields={[
            { label: t('fields.date'), value: day(a.date) },
            { label: t('fields.time'), value: a.time },
            { label: t('fields.doctor'), value: a.doctor },
            { label: t('fields.facility'), value: a.facility },
            { label: t('fields.findings'), value: a.findings },
          ]}
        />
      ))}
    </RecordList>
  );
}

export function AllergiesTab({ items }: { items: PortalAllergy[] }): React.JSX.Element {
  const { t } = useTranslation('portal');
  return (
    <RecordList empty={t('empty.allergies')} count={items.length}>
      {items.map((a) => (
        <RecordItem
          key={a.id}
          title={a.allergen}
          badge={<StatusBadge kind="allergy" value={a.severity} />}
          fields={[
            { label: t('fields.reaction'), value: a.reaction },
            { label: t('fields.reported'), value: day(a.reportedDate) },
          ]}
        />
      ))}
    </RecordList>
  );
}

export function MedicationsTab({ items }: { items: PortalMedication[] }): React.JSX.Element {
  const { t } = useTranslation('portal');
  return (
    <RecordList empty={t('empty.medications')} count={items.length}>
      {items.map((m) => (
        <RecordItem
          key={m.id}
          title={m.medication}
          badge={<StatusBadge kind="medication" value={m.status} />}
          fields={[
            { label: t('fields.dosage'), value: m.dosage },
            { label: t('fields.frequency'), value: m.frequency },
            { label: t('fields.purpose'), value: m.purpose },
            { label: t('fields.doctor'), value: m.doctor },
            { label: t('fields.prescribed'), value: day(m.prescribedDate) },
            { label: t('fields.discontinued'), value: day(m.discontinuedDate) },
            { label: t('fields.nextReview'), value: day(m.nextReview) },
          ]}
        />
      ))}
    </RecordList>
  );
}

export function VaccinesTab({ items }: { items: PortalVaccine[] }): React.JSX.Element {
  const { t } = useTranslation('portal');
  return (
    <RecordList empty={t('empty.vaccines')} count={items.length}>
      {items.map((v) => (
        <RecordItem
          key={v.id}
          title={v.vaccine}
          fields={[
            { label: t('fields.date'), value: day(v.date) },
            { label: t('fields.dose'), value: v.dose },
            { label: t('fields.facility'), value: v.facility },
            { label: t('fields.batchNumber'), value: v.batchNumber },
            { label: t('fields.nextDue'), value: day(v.nextDue) },
          ]}
        />
      ))}
    </RecordList>
  );
}
