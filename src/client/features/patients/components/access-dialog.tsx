// Patient access verification (SPEC §2, §4; DESIGN.md §4): consent, or a stated reason (break-the-glass).
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import type { PatientSearchResult } from '../../../../contracts/patients';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { RadioCards } from '../../../components/ui/radio-cards';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorCodeOf } from '../../../lib/api-error';
import { errorText } from '../../../lib/error-text';
import { formatDate } from '../../../lib/dates';
import { useGrantAccess } from '../api/access';

type Choice = 'none' | 'yes' | 'no';

/** `reauth`: the fresh second factor break-the-glass asks for (REAUTH_REQUIRED), composed in app/; `cancel` is this dialog's Cancel. */
export type ReauthView = (onDone: () => void, cancel: React.ReactNode) => React.ReactNode;

export function AccessDialog({
  patient,
  onGranted,
  onCancel,
  reauth,
}: {
  patient: PatientSearchResult | null;
  onGranted: (p: PatientSearchResult) => void;
  onCancel: () => void;
  reauth?: ReauthView;
}): React.JSX.Element {
  const { t } = useTranslation(['search', 'common', 'validation']);
  const [choice, setChoice] = useState<Choice>('none');
  const [reason, setReason] = useState('');
  const grant = useGrantAccess();
  const [needsReauth, setNeedsReauth] = useState(false);
  const reset = (): void => {
    setChoice('none');
    setReason('');
    setNeedsReauth(false);
  };
  const canGrant = choice === 'yes' || (choice === 'no' && reason.trim() !== '');

  const onGrant = (): void => {
    if (!patient || !canGrant) return;
    const body = choice === 'yes' ? { consent: true as const } : { consent: false as const, reason: reason.trim() };
    grant.mutate(
      { patientId: patient.id, body },
      {
        onSuccess: () => {
          reset();
          onGranted(patient);
        },
        onError: (error) => {
          if (errorCodeOf(error) === 'REAUTH_REQUIRED' && reauth) {
            setNeedsReauth(true);
            return;
          }
          const tooShort = errorCodeOf(error) === 'VALIDATION_FAILED';
          toast({
            title: t('access.failedTitle'),
            description: tooShort ? t('validation:accessReasonLength') : errorText(t, error, t('common:anError')),
            variant: 'destructive',
          });
        },
      },
    );
  };

  return (
    <Dialog
      open={patient !== null}
      onOpenChange={(open) => {
        if (!open) {
          reset();
          onCancel();
        }
      }}
      title={t('access.title')}
      description={
        patient
          ? `${patient.lastName}, ${patient.firstName} · ${t('dob')}: ${formatDate(patient.dateOfBirth)} · ${t('nc')}: ${patient.idNumber}`
          : undefined
      }
    >
      <div className="flex flex-col gap-4">
        <p className="font-medium" id="access-question">
          {t('access.question')}
        </p>
        <RadioCards
          label={t('access.question')}
          columns={1}
          value={choice === 'none' ? '' : choice}
          onValueChange={(v) => setChoice(v as Choice)}
          options={[
            { value: 'yes', title: t('access.yes') },
            { value: 'no', title: t('access.no') },
          ]}
        />
        {choice === 'no' ? (
          <FormField label={t('access.reason')} hint={t('access.reasonHint')} required>
            <textarea
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={500}
              rows={3}
              required
              className="w-full rounded-md border border-slate-300 p-2 text-sm"
            />
          </FormField>
        ) : null}
        {needsReauth && reauth ? (
          reauth(
            () => {
              setNeedsReauth(false);
              onGrant();
            },
            <Button
              variant="secondary"
              onClick={() => {
                reset();
                onCancel();
              }}
            >
              {t('access.cancel')}
            </Button>,
          )
        ) : (
          <div className="flex justify-end gap-2">
            <Button
              variant="secondary"
              onClick={() => {
                reset();
                onCancel();
              }}
            >
              {t('access.cancel')}
            </Button>
            <Button onClick={onGrant} disabled={!canGrant || grant.isPending}>
              {grant.isPending ? <Spinner /> : null}
              {t('access.grant')}
            </Button>
          </div>
        )}
      </div>
    </Dialog>
  );
}
