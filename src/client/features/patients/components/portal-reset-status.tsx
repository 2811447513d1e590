// The portal's state at the desk (issue 21 item 1, decision 031): whether the patient already has a PIN, and a live
// code that needs the patient's current PIN. A second staff member (not the code's issuer) confirms a reset for a
// patient who forgot the PIN (two-person rule); the code itself is never shown again.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { portalStatusQueryOptions, useConfirmPortalReset } from '../api/portal-activation';

export function PortalResetStatus({ patientId }: { patientId: number }): React.JSX.Element | null {
  const { t } = useTranslation(['patients', 'common']);
  const status = useQuery(portalStatusQueryOptions(patientId));
  const confirm = useConfirmPortalReset();
  const live = status.data?.liveCode;
  if (!status.data) return null;
  return (
    <div className="flex flex-col gap-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="portal-status">
      <p>{status.data.active ? t('portalStatus.active') : t('portalStatus.notActive')}</p>
      {live?.needsCurrentPin ? (
        live.resetConfirmedBy ? (
          <p>{t('portalStatus.confirmed', { name: live.resetConfirmedBy.name, at: formatDateTime(live.resetConfirmedAt) })}</p>
        ) : (
          <>
            <p>{t('portalStatus.waiting', { name: live.issuedBy?.name ?? '', at: formatDateTime(live.issuedAt) })}</p>
            {status.data.canConfirmReset ? (
              <div>
                <Button
                  variant="secondary"
                  pending={confirm.isPending}
                  onClick={() =>
                    confirm.mutate(patientId, {
                      onSuccess: () => toast({ title: t('portalStatus.confirmedTitle') }),
                      onError: (error) =>
                        toast({
                          title: t('portalStatus.failedTitle'),
                          description: errorText(t, error, t('common:anError')),
                          variant: 'destructive',
                        }),
                    })
                  }
                >
                  {t('portalStatus.confirm')}
                </Button>
              </div>
            ) : (
              <p className="text-slate-600">{t('portalStatus.otherStaff')}</p>
            )}
          </>
        )
      ) : null}
    </div>
  );
}
