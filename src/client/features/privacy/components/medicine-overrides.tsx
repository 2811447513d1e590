// The medicine-check overrides in the privacy/quality review (issue 25 item 4; decision 045): each warning a clinician
// went ahead over, with who, when, the facility, the patient, the medicine and what it met, the tier, the reason and
// the knowledge version the warning came from. Ten at a time, newest first.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import type { MedicineOverride } from '../../../../contracts/medicine-check-report';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { formatDateTime } from '../../../lib/dates';
import { medicineOverridesQueryOptions } from '../api/privacy-reviews';

function Override({ item }: { item: MedicineOverride }): React.JSX.Element {
  const { t } = useTranslation(['privacy', 'record']);
  const field = (label: string, value: React.ReactNode) => (
    <div className="flex min-w-0 gap-1.5">
      <dt className="shrink-0 text-slate-500">{label}:</dt>
      <dd className="min-w-0 break-words">{value}</dd>
    </div>
  );
  return (
    <li className="flex flex-col gap-2 rounded-md border border-slate-200 bg-white p-3 text-sm">
      <p className="break-words font-semibold text-slate-900">
        <Badge tone={item.tier === 'contraindicated' ? 'red' : 'yellow'} className="mr-2">
          {t(`record:medicineChecks.tier.${item.tier}`)}
        </Badge>
        {t(`record:warnings.${item.code}`, { substance: item.substance, other: item.other })}
      </p>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2">
        {field(t('user'), `${item.user.name} (${item.user.id})`)}
        {field(t('at'), <time dateTime={item.at}>{formatDateTime(item.at)}</time>)}
        {field(t('facility'), item.facility ?? '-')}
        {field(t('patient'), `${item.patient.name ?? t('unknownPatient')} (${item.patient.id})`)}
        {field(t('overrides.knowledge'), `${item.knowledgeVersion} · ${item.rule}`)}
      </dl>
      <p className="break-words rounded-md bg-amber-50 p-2 text-amber-950">
        <span className="font-medium">{t('overrides.reason')}:</span> {item.reason ?? t('overrides.noReason')}
      </p>
    </li>
  );
}

export function MedicineOverrides(): React.JSX.Element | null {
  const { t } = useTranslation('privacy');
  const [page, setPage] = useState(1);
  const overrides = useQuery({ ...medicineOverridesQueryOptions(page), placeholderData: keepPreviousData });
  if (overrides.isPending) return null;
  const pages = overrides.data ? Math.max(1, Math.ceil(overrides.data.total / overrides.data.pageSize)) : 1;
  return (
    <section aria-labelledby="medicine-overrides-title" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-slate-50 p-4">
      <h2 id="medicine-overrides-title" className="font-semibold text-slate-900">
        {t('overrides.title')}
      </h2>
      <p className="text-sm text-slate-700">{t('overrides.intro')}</p>
      {overrides.isError ? (
        <p role="alert" className="text-sm text-red-900">
          {t('overrides.error')}
        </p>
      ) : overrides.data.items.length === 0 ? (
        <p className="text-sm text-slate-700">{t('overrides.empty')}</p>
      ) : (
        <>
          <p className="text-sm font-medium text-slate-800">{t('overrides.total', { count: overrides.data.total })}</p>
          <ul className="flex flex-col gap-2">
            {overrides.data.items.map((item) => (
              <Override key={item.id} item={item} />
            ))}
          </ul>
          {pages > 1 ? (
            <nav aria-label={t('overrides.pagination')} className="flex flex-wrap items-center gap-2 text-sm">
              <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t('previous')}
              </Button>
              <span>{t('page', { page, pages })}</span>
              <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                {t('next')}
              </Button>
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}
