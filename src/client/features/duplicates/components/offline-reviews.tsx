// The duplicates review area's "Offline changes" tab (issue 27 item 5, decision 061; patients.merge): the review tasks
// an offline sync opened, newest first: why (the record changed since the device saw it, or a possible duplicate
// patient, or warnings nobody could confirm offline, named), the patient, the kind of entry, who made it on which
// device and when (device time and server time). Close, with an optional note, once reviewed.
import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { closeReviewInput, type OfflineReview } from '../../../../contracts/offline';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { Dialog } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { offlineReviewsQueryOptions, useCloseOfflineReview } from '../api/offline-reviews';

function CloseDialog({ review, onClose }: { review: OfflineReview | null; onClose: () => void }): React.JSX.Element {
  const { t } = useTranslation(['offline', 'validation', 'common']);
  const close = useCloseOfflineReview();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const done = (): void => {
    setNote('');
    setError(undefined);
    onClose();
  };
  const submit = (): void => {
    if (!review) return;
    const parsed = closeReviewInput.safeParse({ note });
    if (!parsed.success) return setError(t(parsed.error.issues[0]?.message ?? 'validation:invalidValue'));
    close.mutate(
      { id: review.id, note: parsed.data.note },
      {
        onSuccess: () => {
          toast({ title: t('reviews.closed') });
          done();
        },
        onError: (e) =>
          toast({ title: t('reviews.closeFailed'), description: errorText(t, e, t('common:anError')), variant: 'destructive' }),
      },
    );
  };
  return (
    <Dialog
      open={review !== null}
      onOpenChange={(open) => !open && !close.isPending && done()}
      title={t('reviews.closeTitle')}
      description={review ? t(`reviews.reason.${review.reason}`) : undefined}
    >
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <FormField label={t('reviews.note')} hint={t('reviews.noteHint')} error={error}>
          <Textarea value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} rows={3} />
        </FormField>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={done} disabled={close.isPending}>
            {t('reviews.cancel')}
          </Button>
          <Button type="submit" pending={close.isPending} pendingText={t('reviews.closing')}>
            {t('reviews.close')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function OfflineReviews(): React.JSX.Element {
  const { t } = useTranslation(['offline', 'record', 'common']);
  const list = useInfiniteQuery(offlineReviewsQueryOptions());
  const [closing, setClosing] = useState<OfflineReview | null>(null);
  const reviews = list.data?.pages.flatMap((p) => p.reviews) ?? [];
  return (
    <section aria-labelledby="offline-reviews-title" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h3 id="offline-reviews-title" className="font-semibold">
        {t('reviews.title')}
      </h3>
      <p className="text-sm text-slate-700">{t('reviews.intro')}</p>
      {!list.data ? (
        <p role="status">{list.isError ? errorText(t, list.error, t('common:anError')) : t('common:loading')}</p>
      ) : reviews.length === 0 ? (
        <p className="text-sm text-slate-600">{t('reviews.none')}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-200" aria-labelledby="offline-reviews-title">
          {reviews.map((r) => {
            const what = t(`reviews.reason.${r.reason}`);
            return (
              <li key={r.id} className="flex flex-col gap-1 py-3" data-testid="offline-review">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  {what}
                  {r.closedAt ? <Badge tone="gray">{t('reviews.isClosed')}</Badge> : <Badge tone="yellow">{t('reviews.open')}</Badge>}
                </p>
                <p className="text-sm text-slate-700">
                  {t('reviews.patient', { id: r.patientId })}
                  {r.kind ? ` · ${t(`record:sections.${r.kind}`, { defaultValue: r.kind })}` : ''}
                </p>
                {r.warnings.length > 0 ? (
                  <p className="text-sm text-amber-900">
                    {t('reviews.warnings', {
                      list: r.warnings
                        .map((c) =>
                          t(`record:medicineChecks.codes.${c}`, { defaultValue: t(`reviews.warningCodes.${c}`, { defaultValue: c }) }),
                        )
                        .join(', '),
                    })}
                  </p>
                ) : null}
                <p className="break-words text-sm text-slate-600">
                  {t('reviews.madeBy', {
                    user: r.userName,
                    deviceTime: formatDateTime(r.deviceTime),
                    serverTime: formatDateTime(r.createdAt),
                  })}
                </p>
                {r.closedAt ? null : (
                  <div>
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t('reviews.closeLabel', { what, id: r.patientId })}
                      onClick={() => setClosing(r)}
                    >
                      {t('reviews.close')}
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <LoadMoreButton list={list} label={t('reviews.more')} pendingText={t('common:loading')} />
      <CloseDialog review={closing} onClose={() => setClosing(null)} />
    </section>
  );
}
