// The break-the-glass review queue on the Audit screen (docs/decisions/018-privacy-review.md): filters (unreviewed,
// facility, user), each access with who, role, facility, patient, reason, flags and verdict; Review opens one.
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { FACILITIES } from '../../../../contracts/constants';
import { REVIEW_STATUSES, type BreakGlassAccess } from '../../../../contracts/privacy-review';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { Spinner } from '../../../components/ui/spinner';
import { reviewQueueQueryOptions, type QueueFilters } from '../api/privacy-reviews';
import { formatDateTime } from '../../../lib/dates';
import { FlagList } from './flag-list';
import { ReviewDetail } from './review-detail';
import { VerdictBadge } from './verdict-badge';
import { VolumeAlerts } from './volume-alerts';
import { MedicineOverrides } from './medicine-overrides';

const initial: QueueFilters = { status: 'unreviewed', facility: '', userId: '', page: 1 };

function AccessCard({ access, onOpen, focus }: { access: BreakGlassAccess; onOpen: () => void; focus: boolean }): React.JSX.Element {
  const { t } = useTranslation(['privacy', 'common']);
  const role = access.user.role
    ? t(`common:roles.${access.user.role.name}`, { defaultValue: access.user.role.displayName })
    : t('unknownRole');
  const patient = access.patient.name ?? t('unknownPatient');
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="min-w-0 break-words font-semibold text-slate-900">{access.user.name}</h3>
        <VerdictBadge verdict={access.review?.verdict ?? null} />
      </div>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
        <div className="flex min-w-0 gap-1.5">
          <dt className="shrink-0 text-slate-500">{t('at')}:</dt>
          <dd>
            <time dateTime={access.at}>{formatDateTime(access.at)}</time>
          </dd>
        </div>
        <div className="flex min-w-0 gap-1.5">
          <dt className="shrink-0 text-slate-500">{t('role')}:</dt>
          <dd className="min-w-0 break-words">{role}</dd>
        </div>
        <div className="flex min-w-0 gap-1.5">
          <dt className="shrink-0 text-slate-500">{t('facility')}:</dt>
          <dd className="min-w-0 break-words">{access.facility ?? '-'}</dd>
        </div>
        <div className="flex min-w-0 gap-1.5">
          <dt className="shrink-0 text-slate-500">{t('patient')}:</dt>
          <dd className="min-w-0 break-words">
            {patient} ({access.patient.id})
          </dd>
        </div>
      </dl>
      {access.reason ? (
        <p className="break-words rounded-md bg-red-50 p-2 text-sm text-red-900">
          <span className="font-medium">{t('reason')}:</span> {access.reason}
        </p>
      ) : null}
      <FlagList flags={access.flags} />
      <div>
        <Button size="sm" onClick={onOpen} autoFocus={focus} aria-label={t('openLabel', { name: access.user.name, patient })}>
          {t('open')}
        </Button>
      </div>
    </li>
  );
}

export function ReviewQueueTab(): React.JSX.Element {
  const { t } = useTranslation(['privacy', 'audit']);
  const [draft, setDraft] = useState(initial);
  const [applied, setApplied] = useState(initial);
  const [openId, setOpenId] = useState<number | null>(null);
  // After Back, focus returns to the Review button of the access that was open (keyboard users keep their place).
  const [returnTo, setReturnTo] = useState<number | null>(null);
  const queue = useQuery({ ...reviewQueueQueryOptions(applied), placeholderData: keepPreviousData });

  if (openId !== null) {
    return (
      <ReviewDetail
        id={openId}
        onBack={() => {
          setReturnTo(openId);
          setOpenId(null);
        }}
      />
    );
  }

  const pages = queue.data ? Math.max(1, Math.ceil(queue.data.total / queue.data.pageSize)) : 1;
  return (
    <div className="flex flex-col gap-4">
      <VolumeAlerts />
      <MedicineOverrides />
      <p className="text-sm text-slate-600">{t('intro')}</p>
      <form
        aria-label={t('filters')}
        className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ ...draft, page: 1 });
        }}
      >
        <FormField label={t('status.label')}>
          <NativeSelect
            value={draft.status}
            onChange={(e) => setDraft((d) => ({ ...d, status: e.target.value }))}
            options={REVIEW_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          />
        </FormField>
        <FormField label={t('facility')}>
          <NativeSelect
            value={draft.facility}
            onChange={(e) => setDraft((d) => ({ ...d, facility: e.target.value }))}
            placeholder={t('anyFacility')}
            options={FACILITIES.map((f) => ({ value: f, label: f }))}
          />
        </FormField>
        <FormField label={t('userId')}>
          <Input value={draft.userId} onChange={(e) => setDraft((d) => ({ ...d, userId: e.target.value }))} maxLength={64} />
        </FormField>
        <div className="flex items-end">
          <Button type="submit" className="w-full">
            {t('apply')}
          </Button>
        </div>
      </form>
      {queue.isPending ? (
        <p role="status" className="flex items-center gap-2 text-slate-700">
          <Spinner /> {t('loading')}
        </p>
      ) : queue.isError ? (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-lg bg-red-50 p-4 text-red-900">
          <p>{t('error')}</p>
          <Button variant="secondary" onClick={() => void queue.refetch()}>
            {t('retry')}
          </Button>
        </div>
      ) : (
        <>
          <p className="text-sm font-medium text-slate-700" role="status">
            {t('total', { count: queue.data.total })}
          </p>
          {queue.data.items.length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-slate-600">{t('empty')}</p>
          ) : (
            <ul className="flex flex-col gap-3">
              {queue.data.items.map((a) => (
                <AccessCard key={a.id} access={a} focus={a.id === returnTo} onOpen={() => setOpenId(a.id)} />
              ))}
            </ul>
          )}
          {pages > 1 ? (
            <nav aria-label={t('pagination')} className="flex items-center justify-between gap-2">
              <Button
                variant="secondary"
                size="sm"
                disabled={applied.page <= 1}
                onClick={() => setApplied((f) => ({ ...f, page: f.page - 1 }))}
              >
                {t('previous')}
              </Button>
              <span className="text-sm text-slate-600">{t('page', { page: applied.page, pages })}</span>
              <Button
                variant="secondary"
                size="sm"
                disabled={applied.page >= pages}
                onClick={() => setApplied((f) => ({ ...f, page: f.page + 1 }))}
              >
                {t('next')}
              </Button>
            </nav>
          ) : null}
        </>
      )}
    </div>
  );
}
