// The patient is told (issue 24 item 7, decision 048): "Your records from <facility> and <facility> were joined on
// <date>", with "Report that this is wrong", which opens a case for the privacy reviewers (once per join).
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import type { PortalJoin } from '../../../../contracts/portal-joins';
import { Button } from '../../../components/ui/button';
import { formatDate } from '../../../lib/dates';
import { portalJoinsQueryOptions, useReportPortalJoin } from '../api/portal-joins';

function JoinItem({ join }: { join: PortalJoin }): React.JSX.Element {
  const { t } = useTranslation('portal');
  const report = useReportPortalJoin();
  const [first, second] = join.facilities.map((f) => f ?? t('joinNotice.unknownFacility'));
  const date = join.joinedAt ? formatDate(join.joinedAt.slice(0, 10)) : t('joinNotice.unknownDate');
  return (
    <li className="flex flex-col gap-2">
      <p className="text-slate-800">{t('joinNotice.body', { first, second, date })}</p>
      {join.reported || report.isSuccess ? (
        <p role="status" className="text-slate-700">
          {t('joinNotice.reported')}
        </p>
      ) : (
        <div>
          <Button variant="secondary" size="sm" pending={report.isPending} onClick={() => report.mutate(join.id)}>
            {t('joinNotice.report')}
          </Button>
          {report.isError ? (
            <p role="alert" className="mt-1 text-danger-600">
              {t('joinNotice.reportFailed')}
            </p>
          ) : null}
        </div>
      )}
    </li>
  );
}

export function JoinNotice(): React.JSX.Element | null {
  const { t } = useTranslation('portal');
  const joins = useQuery(portalJoinsQueryOptions);
  const items = joins.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section
      aria-labelledby="join-notice-title"
      className="mb-3 flex flex-col gap-2 rounded-md border border-sky-300 bg-sky-50 p-3 text-sm"
    >
      <h2 id="join-notice-title" className="font-semibold text-slate-900">
        {t('joinNotice.title')}
      </h2>
      <ul className="flex flex-col gap-3">
        {items.map((j) => (
          <JoinItem key={j.id} join={j} />
        ))}
      </ul>
      <p className="text-slate-700">{t('joinNotice.why')}</p>
    </section>
  );
}
