// One break-the-glass access under review: who, role, facility, patient, reason, flags, what was read and changed
// while the grant was live, the verdicts so far, and the form to record a verdict.
import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import type { BreakGlassDetail, GrantActivityItem } from '../../../../contracts/privacy-review';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { reviewDetailQueryOptions } from '../api/privacy-reviews';
import { formatDateTime } from '../../../lib/dates';
import { FlagList } from './flag-list';
import { VerdictBadge } from './verdict-badge';
import { VerdictForm } from './verdict-form';

function ActivityList({ items }: { items: GrantActivityItem[] }): React.JSX.Element {
  const { t } = useTranslation(['privacy', 'audit']);
  if (items.length === 0) return <p className="text-sm text-slate-600">{t('activityEmpty')}</p>;
  return (
    <ol className="flex flex-col gap-2 text-sm">
      {items.map((a) => (
        <li key={a.id} className="flex flex-wrap gap-x-3 gap-y-0.5 rounded-md border border-slate-200 p-2">
          <time dateTime={a.at} className="text-slate-500">
            {formatDateTime(a.at)}
          </time>
          <span className="font-medium">{t(`audit:actions.${a.action}`, { defaultValue: a.action })}</span>
          <span>
            {t(`audit:resourceTypes.${a.resourceType}`, { defaultValue: a.resourceType })}
            {a.resourceId ? ` #${a.resourceId}` : ''}
          </span>
        </li>
      ))}
    </ol>
  );
}

function DetailBody({ detail }: { detail: BreakGlassDetail }): React.JSX.Element {
  const { t } = useTranslation(['privacy', 'common']);
  const { access } = detail;
  const role = access.user.role
    ? t(`common:roles.${access.user.role.name}`, { defaultValue: access.user.role.displayName })
    : t('unknownRole');
  const rows: [string, string][] = [
    [t('at'), formatDateTime(access.at)],
    [t('grantUntil'), detail.grantExpiresAt ? formatDateTime(detail.grantExpiresAt) : '-'],
    [t('user'), `${access.user.name} (${access.user.id})`],
    [t('role'), role],
    [t('facility'), access.facility ?? '-'],
    [t('patient'), `${access.patient.name ?? t('unknownPatient')} (${access.patient.id})`],
  ];
  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardContent className="flex flex-col gap-3 pt-6">
          <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-2">
            {rows.map(([label, value]) => (
              <div key={label} className="min-w-0">
                <dt className="text-slate-500">{label}</dt>
                <dd className="break-words font-medium text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
          {access.reason ? (
            <p className="break-words rounded-md bg-red-50 p-2 text-sm text-red-900">
              <span className="font-medium">{t('reason')}:</span> {access.reason}
            </p>
          ) : null}
          <FlagList flags={access.flags} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('activityTitle')}</CardTitle>
        </CardHeader>
        <CardContent>
          <ActivityList items={detail.activity} />
        </CardContent>
      </Card>
      {detail.reviews.length > 0 ? (
        <Card>
          <CardHeader>
            <CardTitle>{t('historyTitle')}</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="flex flex-col gap-2 text-sm">
              {detail.reviews.map((r) => (
                <li key={`${r.at}-${r.reviewerId}`} className="flex flex-col gap-1 rounded-md border border-slate-200 p-2">
                  <div className="flex flex-wrap items-center gap-2">
                    <VerdictBadge verdict={r.verdict} />
                    <span className="text-slate-600">
                      {r.reviewerName}, {formatDateTime(r.at)}
                    </span>
                  </div>
                  <p className="break-words">{r.note}</p>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}
      <VerdictForm id={access.id} />
    </div>
  );
}

export function ReviewDetail({ id, onBack }: { id: number; onBack: () => void }): React.JSX.Element {
  const { t } = useTranslation('privacy');
  const detail = useQuery(reviewDetailQueryOptions(id));
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="review-detail-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="review-detail-title" ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
          {detail.data ? t('detailTitle', { name: detail.data.access.user.name }) : t('tab')}
        </h3>
        <Button variant="secondary" onClick={onBack}>
          {t('back')}
        </Button>
      </div>
      {detail.isPending ? (
        <p role="status" className="flex items-center gap-2 text-slate-700">
          <Spinner /> {t('loading')}
        </p>
      ) : detail.isError ? (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-lg bg-red-50 p-4 text-red-900">
          <p>{t('error')}</p>
          <Button variant="secondary" onClick={() => void detail.refetch()}>
            {t('retry')}
          </Button>
        </div>
      ) : (
        <DetailBody detail={detail.data} />
      )}
    </section>
  );
}
