// Overview (SPEC §2): full name, NC number, date of birth, sex, contact number, address, next of kin and their
// contact, and the counts of the lists the record kinds say are counted.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import type { PortalRecord } from '../../../../contracts/portal';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { accessSummaryQueryOptions } from '../api/portal-record';
import { formatDate } from '../../../lib/dates';
import type { PortalListView } from './record-tabs';

/** The counter of emergency (break-the-glass) accesses to this record that no reviewer has checked yet. */
function UnreviewedEmergencyAccesses(): React.JSX.Element | null {
  const { t } = useTranslation('privacy');
  const summary = useQuery(accessSummaryQueryOptions);
  if (summary.isError) return null;
  // While the count is on its way the box already holds its place (a blank line as tall as the number), so the page
  // does not move when it arrives (issue 21 item 18: a layout shift on a phone's first paint).
  const n = summary.data?.unreviewedEmergencyAccesses;
  const alarm = n !== undefined && n > 0;
  return (
    <div className={`flex items-center gap-3 rounded-md p-3 ${alarm ? 'bg-red-50' : 'bg-slate-50'}`} aria-busy={n === undefined}>
      <dl className="flex min-w-0 flex-col-reverse">
        <dt className="text-sm font-medium text-slate-700">{t('portal.unreviewedCount')}</dt>
        <dd className={`text-2xl font-bold ${alarm ? 'text-red-800' : 'text-slate-700'}`}>{n ?? '\u00a0'}</dd>
      </dl>
      <p className="min-w-0 text-xs text-slate-600">{t('portal.unreviewedHelp')}</p>
    </div>
  );
}

export function OverviewTab({ record, lists }: { record: PortalRecord; lists: PortalListView[] }): React.JSX.Element {
  const { t } = useTranslation('portal');
  const { patient } = record;
  const sexKey = patient.sex.trim().toLowerCase();
  const details: [string, string | null][] = [
    [t('overview.fullName'), `${patient.firstName} ${patient.lastName}`.trim()],
    [t('overview.ncNumber'), patient.ncNumber],
    [t('overview.dateOfBirth'), patient.dateOfBirth ? formatDate(patient.dateOfBirth) : null],
    [t('overview.sex'), /^[a-z]+$/.test(sexKey) ? t(`sex.${sexKey}`, { defaultValue: patient.sex }) : patient.sex],
    [t('overview.contactNumber'), patient.contactNumber],
    [t('overview.address'), patient.address],
    [t('overview.nextOfKin'), patient.nextOfKin],
    [t('overview.nextOfKinContact'), patient.nextOfKinContact],
  ];
  const counts: [string, number][] = lists.filter((l) => l.counted).map((l) => [t(`overview.counts.${l.kind}`), l.count]);
  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle>{t('overview.summaryTitle')}</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
            {counts.map(([label, n]) => (
              <div key={label} className="flex flex-col-reverse rounded-md bg-brand-50 p-3">
                <dt className="text-sm text-slate-600">{label}</dt>
                <dd className="text-2xl font-bold text-brand-700">{n}</dd>
              </div>
            ))}
          </dl>
          <div className="mt-3">
            <UnreviewedEmergencyAccesses />
          </div>
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
