// Volume alerts at the top of the review queue (docs/decisions/011-rate-limits-and-volume-alerts.md): the newest
// bulk-search and many-records-opened alerts, each naming the user and the figures.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { volumeAlertsQueryOptions } from '../api/privacy-reviews';
import { formatDateTime } from '../../../lib/dates';

export function VolumeAlerts(): React.JSX.Element | null {
  const { t } = useTranslation('privacy');
  const alerts = useQuery(volumeAlertsQueryOptions);
  if (alerts.isPending) return null;
  return (
    <section aria-labelledby="volume-alerts-title" className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-4">
      <h2 id="volume-alerts-title" className="font-semibold text-slate-900">
        {t('alerts.title')}
      </h2>
      <p className="text-sm text-slate-700">{t('alerts.intro')}</p>
      {alerts.isError ? (
        <p role="alert" className="text-sm text-red-900">
          {t('alerts.error')}
        </p>
      ) : alerts.data.items.length === 0 ? (
        <p className="text-sm text-slate-700">{t('alerts.empty')}</p>
      ) : (
        <>
          <p className="text-sm font-medium text-slate-800">{t('alerts.total', { count: alerts.data.total })}</p>
          <ul className="flex flex-col gap-2">
            {alerts.data.items.map((a) => (
              <li key={a.id} className="flex flex-col gap-1 rounded-md border border-amber-200 bg-white p-3 text-sm">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <span className="min-w-0 break-words font-semibold text-slate-900">
                    {a.user ? `${a.user.name} (${a.user.id})` : t('alerts.noUser')}
                  </span>
                  <time dateTime={a.at} className="text-slate-600">
                    {formatDateTime(a.at)}
                  </time>
                </div>
                <p className="break-words text-slate-800">
                  {t(`alerts.${a.type}`, { count: a.count, minutes: a.minutes, threshold: a.threshold, ...a.patientJoin })}
                </p>
                {a.escalated ? <p className="font-semibold text-red-900">{t('alerts.escalated')}</p> : null}
                {a.updatedAt !== a.at ? (
                  <p className="text-slate-600">{t('alerts.updated', { time: formatDateTime(a.updatedAt) })}</p>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
