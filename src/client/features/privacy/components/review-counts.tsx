// The reviewer's counts on the dashboard: unreviewed emergency accesses, and those needing follow-up or found not
// justified, with a way into the queue.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';
import { reviewSummaryQueryOptions } from '../api/privacy-reviews';

export function ReviewCounts({ onOpen }: { onOpen: () => void }): React.JSX.Element | null {
  const { t } = useTranslation('privacy');
  const summary = useQuery(reviewSummaryQueryOptions);
  if (!summary.data) return null;
  const tiles: [string, number, string][] = [
    [t('counts.unreviewed'), summary.data.unreviewed, 'text-brand-700'],
    [t('counts.followUp'), summary.data.followUp, 'text-yellow-800'],
    [t('counts.notJustified'), summary.data.notJustified, 'text-danger-600'],
  ];
  return (
    <section
      aria-labelledby="review-counts-title"
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="review-counts-title" className="font-semibold text-slate-900">
          {t('counts.title')}
        </h2>
        <Button variant="secondary" size="sm" onClick={onOpen}>
          {t('counts.open')}
        </Button>
      </div>
      <dl className="grid grid-cols-3 gap-2">
        {tiles.map(([label, n, colour]) => (
          <div key={label} className="flex flex-col-reverse rounded-md bg-slate-50 p-2">
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className={`text-2xl font-bold ${colour}`}>{n}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
