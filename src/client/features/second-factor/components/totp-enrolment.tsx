// Setting up an authenticator app (decision 024): the secret shown once as a QR code and as text, confirmed by a
// first code; then the recovery codes, shown once.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import type { TotpConfirmed } from '../../../../contracts/mfa';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { useConfirmEnrolment, useStartEnrolment } from '../api/second-factor';
import { CodeForm } from './code-form';
import { RecoveryCodes } from './recovery-codes';

export function TotpEnrolment({
  onDone,
  onCancel,
}: {
  onDone: (confirmed: TotpConfirmed) => void;
  onCancel?: () => void;
}): React.JSX.Element {
  const { t } = useTranslation(['security', 'common']);
  const start = useStartEnrolment();
  const confirm = useConfirmEnrolment();
  const [confirmed, setConfirmed] = useState<TotpConfirmed | null>(null);
  const started = useRef(false);
  const { mutate } = start;
  useEffect(() => {
    if (started.current) return; // one secret per visit (React may run effects twice in development)
    started.current = true;
    mutate(undefined, {
      onError: (error) =>
        toast({ title: t('enrol.failedTitle'), description: errorText(t, error, t('common:anError')), variant: 'destructive' }),
    });
  }, [mutate, t]);

  if (confirmed) return <RecoveryCodes codes={confirmed.recoveryCodes} onDone={() => onDone(confirmed)} />;
  const enrolment = start.data;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-700">{t('enrol.intro')}</p>
      {enrolment ? (
        <>
          <img
            src={`data:image/svg+xml;base64,${btoa(enrolment.qrSvg)}`}
            alt={t('enrol.qrAlt')}
            width={200}
            height={200}
            className="self-center rounded-md border border-slate-200 bg-white"
          />
          <div className="text-sm">
            <p id="totp-secret-label" className="text-slate-600">
              {t('enrol.secretLabel')}
            </p>
            <p aria-labelledby="totp-secret-label" data-testid="totp-secret" className="break-all font-mono text-base">
              {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
            </p>
          </div>
          <CodeForm
            submitLabel={t('enrol.confirm')}
            pending={confirm.isPending}
            allowRecovery={false}
            onCode={(code) =>
              confirm.mutate(code, {
                onSuccess: setConfirmed,
                onError: (error) =>
                  toast({ title: t('enrol.failedTitle'), description: errorText(t, error, t('common:anError')), variant: 'destructive' }),
              })
            }
          >
            {onCancel ? (
              <Button variant="secondary" onClick={onCancel}>
                {t('enrol.cancel')}
              </Button>
            ) : null}
          </CodeForm>
        </>
      ) : start.isError ? (
        onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            {t('enrol.cancel')}
          </Button>
        ) : null
      ) : (
        <p role="status">{t('common:loading')}</p>
      )}
    </div>
  );
}
