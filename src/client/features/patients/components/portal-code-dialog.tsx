// A clinic desk issues a new portal activation code for a patient found in the search (decision 016): first the
// consequences (replaces an earlier code, 72 hours, shown to the patient), then the printable slip.
import { useTranslation } from '../../../lib/use-translation';
import type { PatientSearchResult } from '../../../../contracts/patients';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { useIssuePortalActivation } from '../api/portal-activation';
import { ActivationSlip } from './activation-slip';
import { PortalResetStatus } from './portal-reset-status';

export function PortalCodeDialog({ patient, onClose }: { patient: PatientSearchResult | null; onClose: () => void }): React.JSX.Element {
  const { t } = useTranslation(['patients', 'common']);
  const issue = useIssuePortalActivation();
  const close = (): void => {
    issue.reset();
    onClose();
  };
  const name = patient ? `${patient.firstName} ${patient.lastName}` : '';
  return (
    <Dialog open={patient !== null} onOpenChange={(open) => !open && close()} title={t('issue.title')} size="lg">
      {patient && issue.data ? (
        <ActivationSlip patient={patient} activation={issue.data} />
      ) : (
        <div className="flex flex-col gap-3">
          {patient ? <PortalResetStatus patientId={patient.id} /> : null}
          <p className="text-sm text-slate-700">{t('issue.description', { name })}</p>
        </div>
      )}
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={close}>
          {t('issue.close')}
        </Button>
        {patient && !issue.data ? (
          <Button
            pending={issue.isPending}
            pendingText={t('issue.issuing')}
            onClick={() =>
              issue.mutate(patient.id, {
                onError: (error) =>
                  toast({
                    title: t('issue.failedTitle'),
                    description: errorText(t, error, t('common:errors.INTERNAL')),
                    variant: 'destructive',
                  }),
              })
            }
          >
            {t('issue.confirm')}
          </Button>
        ) : null}
      </div>
    </Dialog>
  );
}
