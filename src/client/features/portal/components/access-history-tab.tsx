// Access history (DESIGN.md §6): who opened the patient's record — name, role, facility, when, and consent or the
// reason they gave — newest first, a page at a time.
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import type { AccessKind, AccessLogItem } from '../../../../contracts/portal';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { accessLogQueryOptions } from '../api/portal-record';
import { formatDateTime } from '../../../lib/dates';

const PAGE_SIZE = 10;
const kindTone: Record<AccessKind, BadgeTone> = {
  CONSENT: 'green',
  BREAK_GLASS: 'red',
  SEARCH: 'blue',
  ACTIVATION_CODE: 'purple',
  PORTAL_ACTIVATED: 'purple',
  PORTAL_RESET_CONFIRMED: 'purple',
};

function AccessEntry({ item }: { item: AccessLogItem }): React.JSX.Element {
  const { t } = useTranslation(['portal', 'common', 'privacy']);
  const role = item.role ? t(`common:roles.${item.role.name}`, { defaultValue: item.role.displayName }) : t('access.unknownRole');
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="min-w-0 break-words font-semibold text-slate-900">{item.name}</h3>
        <Badge tone={kindTone[item.kind]}>{t(`access.kind.${item.kind}`)}</Badge>
      </div>
      <dl className="mt-2 grid grid-cols-1 gap-y-1 text-sm">
        <div className="flex min-w-0 gap-1.5">
          <dt className="shrink-0 text-slate-500">{t('access.when')}:</dt>
          <dd>
            <time dateTime={item.at}>{formatDateTime(item.at)}</time>
          </dd>
        </div>
        <div className="flex min-w-0 gap-1.5">
          <dt className="shrink-0 text-slate-500">{t('access.role')}:</dt>
          <dd className="min-w-0 break-words">{role}</dd>
        </div>
        <div className="flex min-w-0 gap-1.5">
          <dt className="shrink-0 text-slate-500">{t('access.staffId')}:</dt>
          <dd className="min-w-0 break-words font-mono">{item.staffId}</dd>
        </div>
        {item.facility ? (
          <div className="flex min-w-0 gap-1.5">
            <dt className="shrink-0 text-slate-500">{t('access.facility')}:</dt>
            <dd className="min-w-0 break-words">{item.facility}</dd>
          </div>
        ) : null}
      </dl>
      {item.reason ? (
        <p className="mt-2 break-words rounded-md bg-red-50 p-2 text-sm text-red-900">
          <span className="font-medium">{t('access.reason')}:</span> {item.reason}
        </p>
      ) : null}
      {item.kind === 'BREAK_GLASS' ? (
        <p className="mt-2 text-sm font-medium text-slate-800">
          {item.review
            ? t('privacy:portal.reviewed', { verdict: t(`privacy:portal.verdict.${item.review.verdict}`) })
            : t('privacy:portal.awaiting')}
        </p>
      ) : null}
    </li>
  );
}

export function AccessHistoryTab(): React.JSX.Element {
  const { t } = useTranslation('portal');
  const [page, setPage] = useState(1);
  const log = useQuery({ ...accessLogQueryOptions(page, PAGE_SIZE), placeholderData: keepPreviousData });

  if (log.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-slate-700">
        <Spinner /> {t('access.loading')}
      </p>
    );
  }
  if (log.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-lg bg-red-50 p-4 text-red-900">
        <p>{t('access.error')}</p>
        <Button variant="secondary" onClick={() => void log.refetch()}>
          {t('access.retry')}
        </Button>
      </div>
    );
  }
  const { items, total } = log.data;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-600">{t('access.intro')}</p>
      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-slate-600">{t('access.empty')}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {items.map((item) => (
            <AccessEntry key={item.id} item={item} />
          ))}
        </ul>
      )}
      {pages > 1 ? (
        <nav aria-label={t('access.navigation')} className="flex items-center justify-between gap-2">
          <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            {t('access.previous')}
          </Button>
          <span className="text-sm text-slate-600">{t('access.page', { page, pages })}</span>
          <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            {t('access.next')}
          </Button>
        </nav>
      ) : null}
    </div>
  );
}
