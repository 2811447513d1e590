// Overview (SPEC §2): full name, NC number, date of birth, sex, contact number, address, next of kin and their
// contact, and the counts of diagnoses, appointments, medications and vaccines.
import { useTranslation } from 'react-i18next';
import type { PortalRecord } from '../../../../contracts/portal';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { formatDay } from '../format';

export function OverviewTab({ record }: { record: PortalRecord }): React.JSX.Element {
  const { t } = useTranslation('portal');
  const { patient, medicalRecords: r } = record;
  const sexKey = patient.sex.trim().toLowerCase();
  const details: [string, string | null][] = [
    [t('overview.fullName'), `${patient.firstName} ${patient.lastName}`.trim()],
    [t('overview.ncNumber'), patient.ncNumber],
    [t('overview.dateOfBirth'), patient.dateOfBirth ? formatDay(patient.dateOfBirth) : null],
    [t('overview.sex'), /^[a-z]+$/.test(sexKey) ? t(`sex.${sexKey}`, { defaultValue: patient.sex }) : patient.sex],
    [t('overview.contactNumber'), patient.contactNumber],
    [t('overview.address'), patient.address],
    [t('overview.nextOfKin'), patient.nextOfKin],
    [t('overview.nextOfKinContact'), patient.nextOfKinContact],
  ];
  const counts: [string, number][] = [
    [t('overview.diagnosesCount'), r.diagnoses.length],
    [t('overview.appointmentsCount'), r.appointments.length],
    [t('overview.medicationsCount'), r.medications.length],
    [t('overview.vaccinesCount'), r.vaccines.length],
  ];
  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle>{t('overview.summaryTitle')}</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {counts.map(([label, n]) => (
              <div key={label} className="flex flex-col-reverse rounded-md bg-brand-50 p-3">
                <dt className="text-sm text-slate-600">{label}</dt>
                <dd className="text-2xl font-bold text-brand-700">{n}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('overview.personalTitle')}</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            {details.map(([label, value]) => (
              <div key={label} className="min-w-0">
                <dt className="text-sm text-slate-500">{label}</dt>
                <dd className="break-words font-medium text-slate-900">{value || t('overview.notRecorded')}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}
