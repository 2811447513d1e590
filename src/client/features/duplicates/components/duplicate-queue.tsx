// The duplicate review queue (issue 24 item 3, decision 046): the matcher's run (start or resume, progress), the open
// pairs best first, filtered by band; each pair side by side with the fields that differ marked, its score and
// reasons, and the decisions "not the same person" (with a reason) and "skip"; "Compare side by side" opens the pair
// whole (pair-review: both records, the choices, joining). Beside the pairs, the Joins (joins-list).
import { useEffect, useRef, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { MATCH_BANDS, type DuplicatePair } from '../../../../contracts/duplicates';
import type { PatientSummary } from '../../../../contracts/patients';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { NativeSelect } from '../../../components/ui/native-select';
import { Spinner } from '../../../components/ui/spinner';
import { Tabs } from '../../../components/ui/tabs';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { duplicateKeys, duplicateQueueQueryOptions, scanProgressQueryOptions, useStartScan, type QueueFilters } from '../api/duplicates';
import { DecisionForm } from './decision-form';
import { JoinsList } from './joins-list';
import { OfflineReviews } from './offline-reviews';
import { PairReview } from './pair-review';
import type { DescribeRow } from './pair-lists';

const FIELDS = ['firstName', 'lastName', 'dateOfBirth', 'sex', 'idNumber', 'address'] as const;

function ScanPanel(): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  const progress = useQuery(scanProgressQueryOptions);
  const start = useStartScan();
  const p = progress.data;
  // When a run ends, the queue shows what it found.
  const queryClient = useQueryClient();
  const last = useRef(p?.status);
  useEffect(() => {
    if (last.current === 'running' && p?.status !== 'running') void queryClient.invalidateQueries({ predicate: duplicateKeys.all });
    last.current = p?.status;
  }, [p?.status, queryClient]);
  return (
    <section aria-labelledby="duplicate-scan" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <h3 id="duplicate-scan" className="font-semibold">
        {t('duplicates.scanTitle')}
      </h3>
      <p role="status" className="text-sm text-slate-700">
        {p
          ? t(`duplicates.scanStatus.${p.status}`, {
              done: p.done.toLocaleString(),
              total: p.total.toLocaleString(),
              pairs: p.pairs.toLocaleString(),
            })
          : t('duplicates.loading')}
      </p>
      <div>
        <Button
          variant="secondary"
          disabled={start.isPending || p?.status === 'running'}
          onClick={() =>
            start.mutate(undefined, {
              onError: (error) =>
                toast({ title: t('duplicates.failed'), description: errorText(t, error, t('duplicates.failed')), variant: 'destructive' }),
            })
          }
        >
          {p?.status === 'paused' ? t('duplicates.resume') : t('duplicates.run')}
        </Button>
      </div>
    </section>
  );
}

function Side({ patient, other, label }: { patient: PatientSummary; other: PatientSummary; label: string }): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  return (
    <div className="min-w-0 rounded-md border border-slate-200 p-3">
      <h4 className="mb-2 text-sm font-semibold text-slate-700">{label}</h4>
      <dl className="flex flex-col gap-1 text-sm">
        {FIELDS.map((f) => {
          // NC numbers always differ: marking them would hide the differences that matter.
          const differs = f !== 'idNumber' && (patient[f] ?? '') !== (other[f] ?? '');
          return (
            <div key={f} className="flex min-w-0 flex-wrap gap-1.5">
              <dt className="shrink-0 text-slate-500">{t(`duplicates.field.${f}`)}:</dt>
              <dd
                className={differs ? 'min-w-0 break-words rounded bg-yellow-100 px-1 font-medium text-yellow-900' : 'min-w-0 break-words'}
              >
                {patient[f] || '-'}
                {differs ? <span className="sr-only"> ({t('duplicates.differs')})</span> : null}
              </dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}

function PairCard({ pair, onOpen }: { pair: DuplicatePair; onOpen: (id: number) => void }): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  const [a, b] = pair.patients;
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold text-slate-900">
          {t('duplicates.pairTitle', { a: `${a.firstName} ${a.lastName}`, b: `${b.firstName} ${b.lastName}` })}
        </h3>
        <Badge tone={pair.band === 'very-likely' ? 'red' : 'yellow'}>{t(`duplicates.band.${pair.band}`)}</Badge>
        <span className="text-sm text-slate-600">{t('duplicates.score', { score: pair.score })}</span>
      </div>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Side patient={a} other={b} label={t('duplicates.record', { n: 1 })} />
        <Side patient={b} other={a} label={t('duplicates.record', { n: 2 })} />
      </div>
      <div>
        <h4 className="text-sm font-semibold text-slate-700">{t('duplicates.why')}</h4>
        <ul className="flex flex-wrap gap-1.5 pt-1 text-xs">
          {pair.reasons.map((r) => (
            <li
              key={`${r.field}-${r.agreement}`}
              className={r.weight >= 0 ? 'rounded bg-green-50 px-2 py-0.5 text-green-900' : 'rounded bg-red-50 px-2 py-0.5 text-red-900'}
            >
              {t(`duplicates.field.${r.field}`)}: {t(`duplicates.agreement.${r.agreement}`)} ({r.weight > 0 ? '+' : ''}
              {r.weight})
            </li>
          ))}
        </ul>
      </div>
      <div>
        <Button variant="secondary" data-pair-open={pair.id} onClick={() => onOpen(pair.id)}>
          {t('duplicates.review.open')}
        </Button>
      </div>
      <DecisionForm pair={pair} />
    </li>
  );
}

export interface DuplicateQueueProps {
  /** How an entry of a record list reads (the record's own kind views, composed in by the app). */
  describeRow: DescribeRow;
  /** The user may open records: a join's result links to the surviving record. */
  canOpenRecords: boolean;
  /** The signed-in reviewer's name (a join they asked for needs another reviewer's approval). */
  userName: string;
}

export function DuplicateQueue(props: DuplicateQueueProps): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  const [view, setView] = useState('pairs');
  return (
    <Tabs
      label={t('duplicates.views.label')}
      value={view}
      onValueChange={setView}
      items={[
        { value: 'pairs', label: t('duplicates.views.pairs'), content: <PairsView {...props} /> },
        { value: 'joins', label: t('duplicates.views.joins'), content: <JoinsList userName={props.userName} /> },
        // The review tasks an offline sync opened (issue 27 item 5).
        { value: 'offline', label: t('offline:reviews.tab'), content: <OfflineReviews /> },
      ]}
    />
  );
}

function PairsView({ describeRow, canOpenRecords }: DuplicateQueueProps): React.JSX.Element {
  const [open, setOpen] = useState<number | null>(null);
  // Kept here so that the list comes back as it was left.
  const [filters, setFilters] = useState<QueueFilters>({ band: '', page: 1 });
  const back = (): void => {
    const id = open;
    setOpen(null);
    // Back on the list: focus on the pair's "Compare" button when it is still there, else the list's heading.
    requestAnimationFrame(() =>
      (document.querySelector<HTMLElement>(`[data-pair-open="${id}"]`) ?? document.getElementById('duplicates-title'))?.focus(),
    );
  };
  if (open !== null) return <PairReview pairId={open} onBack={back} describeRow={describeRow} canOpenRecords={canOpenRecords} />;
  return <PairQueue onOpen={setOpen} filters={filters} setFilters={setFilters} />;
}

function PairQueue({
  onOpen,
  filters,
  setFilters,
}: {
  onOpen: (id: number) => void;
  filters: QueueFilters;
  setFilters: (f: QueueFilters) => void;
}): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  const queue = useQuery({ ...duplicateQueueQueryOptions(filters), placeholderData: keepPreviousData });
  const pages = queue.data ? Math.max(1, Math.ceil(queue.data.total / queue.data.pageSize)) : 1;
  return (
    <section aria-labelledby="duplicates-title" className="flex flex-col gap-4">
      <h2 id="duplicates-title" tabIndex={-1} className="text-lg font-semibold outline-none">
        {t('duplicates.title')}
      </h2>
      <ScanPanel />
      <div className="max-w-xs">
        <FormField label={t('duplicates.bandFilter')}>
          <NativeSelect
            value={filters.band}
            onChange={(e) => setFilters({ band: e.target.value, page: 1 })}
            options={[
              { value: '', label: t('duplicates.bandAll') },
              ...MATCH_BANDS.map((b) => ({ value: b, label: t(`duplicates.band.${b}`) })),
            ]}
          />
        </FormField>
      </div>
      {queue.isPending ? <Spinner /> : null}
      {queue.isError ? (
        <p role="alert" className="text-danger-600">
          {errorText(t, queue.error, t('duplicates.failed'))}
        </p>
      ) : null}
      {queue.data && queue.data.items.length === 0 ? <p>{t('duplicates.empty')}</p> : null}
      <ul className="flex flex-col gap-4">
        {queue.data?.items.map((p) => (
          <PairCard key={p.id} pair={p} onOpen={onOpen} />
        ))}
      </ul>
      {pages > 1 ? (
        <nav aria-label={t('duplicates.pages')} className="flex items-center gap-2">
          <Button
            variant="secondary"
            size="sm"
            disabled={filters.page <= 1}
            onClick={() => setFilters({ ...filters, page: filters.page - 1 })}
          >
            {t('duplicates.previous')}
          </Button>
          <span className="text-sm">{t('duplicates.page', { page: filters.page, pages })}</span>
          <Button
            variant="secondary"
            size="sm"
            disabled={filters.page >= pages}
            onClick={() => setFilters({ ...filters, page: filters.page + 1 })}
          >
            {t('duplicates.next')}
          </Button>
        </nav>
      ) : null}
    </section>
  );
}
