// The patient is told about a reset of their portal that two staff members confirmed without their PIN (issue 21
// item 1, decision 031): who issued the code, who confirmed it, when; what to do if it was not them.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';
import { formatDateTime } from '../../../lib/dates';
import { portalNoticesQueryOptions, useDismissPortalNotices } from '../api/portal-notices';

export function ResetNotice(): React.JSX.Element | null {
  const { t } = useTranslation('portal');
  const notices = useQuery(portalNoticesQueryOptions);
  const dismiss = useDismissPortalNotices();
  const reset = notices.data?.reset;
  if (!reset) return null;
  return (
    <section
      role="status"
      aria-labelledby="reset-notice-title"
      className="mb-3 flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm"
    >
      <h2 id="reset-notice-title" className="font-semibold text-slate-900">
        {t('resetNotice.title')}
      </h2>
      <p className="text-slate-800">
        {t('resetNotice.body', { at: formatDateTime(reset.at), issuedBy: reset.issuedBy, confirmedBy: reset.confirmedBy })}
      </p>
      <p className="text-slate-800">{t('resetNotice.notYou')}</p>
      <div>
        <Button variant="secondary" size="sm" pending={dismiss.isPending} onClick={() => dismiss.mutate()}>
          {t('resetNotice.dismiss')}
        </Button>
      </div>
    </section>
  );
}
