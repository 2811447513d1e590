// Demographics (SPEC §2, §3): the patient's details, read-only in both modes.
import { useTranslation } from '../../../lib/use-translation';
import type { RecordPatient } from '../../../../contracts/access';
import { ageOn, todayIso } from '../../../../contracts/calendar';
import { Card, CardContent } from '../../../components/ui/card';
import { formatDate } from '../../../lib/dates';

export function DemographicsSection({ patient }: { patient: RecordPatient }): React.JSX.Element {
  const { t } = useTranslation('record');
  const age = ageOn(patient.dateOfBirth, todayIso());
  const rows: [string, string][] = [
    ['fullName', `${patient.firstName} ${patient.lastName}`],
    ['dateOfBirth', formatDate(patient.dateOfBirth)],
    ['age', age === null ? '-' : String(age)],
    ['sex', t(`sex.${patient.sex}`, { defaultValue: patient.sex })],
    ['ncNumber', patient.idNumber],
    ['contactNumber', patient.contactNumber || '-'],
    ['address', patient.address || '-'],
    ['nextOfKin', patient.nextOfKin || '-'],
    ['nextOfKinContact', patient.nextOfKinContact || '-'],
  ];
  return (
    <section aria-labelledby="record-demographics" className="flex flex-col gap-3">
      <h2 id="record-demographics" className="text-xl font-semibold">
        {t('sections.demographics')}
      </h2>
      <Card>
        <CardContent className="pt-5">
          <dl className="grid gap-4 sm:grid-cols-2">
            {rows.map(([key, value]) => (
              <div key={key}>
                <dt className="text-sm text-slate-500">{t(`demographics.${key}`)}</dt>
                <dd className="font-medium text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
    </section>
  );
}
