// The sign-in's second step (decision 024): the code of an enrolled user, or the enrolment a role requires.
// Both end like the password sign-in did: a toast and a reload into the dashboard.
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';
import { PageCard } from '../../../components/ui/page-card';
import { FormAlert, useRefusal } from '../../../components/ui/form-alert';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { passkeyErrorText, passkeysSupported } from '../../../lib/passkeys';
import { useSecondFactorLogin, useSecondFactorPasskey } from '../api/second-factor';
import { CodeForm } from './code-form';
import { TotpEnrolment } from './totp-enrolment';

export function SecondFactorStep({
  step,
  onBack,
  methods = ['totp'],
}: {
  step: 'verify' | 'enrol';
  onBack: () => void;
  methods?: ('totp' | 'passkey')[];
}): React.JSX.Element {
  const { t } = useTranslation(['security', 'auth', 'common']);
  const verify = useSecondFactorLogin();
  const passkey = useSecondFactorPasskey();
  const { refusal, refuse } = useRefusal();
  const withCode = methods.includes('totp');
  const withPasskey = methods.includes('passkey') && passkeysSupported();
  const signedIn = (): void => {
    toast({ title: t('auth:login.successTitle'), description: t('auth:login.successDescription') });
    window.location.reload();
  };
  const verifyCode = (code: string): void =>
    verify.mutate(code, {
      onSuccess: signedIn,
      onError: (error) => refuse(t('auth:login.failedTitle'), errorText(t, error, t('common:anError'))),
    });
  const back = (
    <Button variant="secondary" onClick={onBack}>
      {t('secondStep.back')}
    </Button>
  );
  const passkeyButton = withPasskey ? (
    <Button
      variant={withCode ? 'secondary' : 'primary'}
      autoFocus={!withCode}
      pending={passkey.isPending}
      pendingText={t('common:passkeys.waiting')}
      onClick={() =>
        passkey.mutate(undefined, {
          onSuccess: signedIn,
          onError: (error) => refuse(t('auth:login.failedTitle'), passkeyErrorText(t, error)),
        })
      }
    >
      {t('common:passkeys.use')}
    </Button>
  ) : null;
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <PageCard
        eyebrow={t('common:appName')}
        title={step !== 'verify' ? t('enrol.title') : withCode ? t('secondStep.title') : t('common:passkeys.secondStepTitle')}
        description={step !== 'verify' ? t('enrol.requiredIntro') : withCode ? t('secondStep.intro') : t('common:passkeys.secondStepIntro')}
      >
        {step === 'verify' && !withCode ? (
          <div className="flex flex-col gap-4">
            <FormAlert refusal={refusal} />
            <div className="flex flex-wrap gap-2">
              {passkeyButton}
              {back}
            </div>
            {/* A passkey-only user away from the device signs in with a recovery code (issue 21 item 13). */}
            <details className="rounded-md border border-slate-200 p-3">
              <summary className="cursor-pointer text-sm font-medium">{t('secondStep.recoveryToggle')}</summary>
              <div className="mt-3">
                <CodeForm submitLabel={t('secondStep.recoveryVerify')} pending={verify.isPending} onCode={verifyCode} />
              </div>
            </details>
          </div>
        ) : step === 'verify' ? (
          <CodeForm autoFocus submitLabel={t('secondStep.verify')} pending={verify.isPending} refusal={refusal} onCode={verifyCode}>
            {passkeyButton}
            {back}
          </CodeForm>
        ) : (
          <TotpEnrolment onDone={signedIn} onCancel={onBack} />
        )}
      </PageCard>
    </main>
  );
}
