// The sign-in's second step (decision 024): the code of an enrolled user, or the enrolment a role requires.
// Both end like the password sign-in did: a toast and a reload into the dashboard.
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { PageCard } from '../../../components/ui/page-card';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { useSecondFactorLogin } from '../api/second-factor';
import { CodeForm } from './code-form';
import { TotpEnrolment } from './totp-enrolment';

export function SecondFactorStep({ step, onBack }: { step: 'verify' | 'enrol'; onBack: () => void }): React.JSX.Element {
  const { t } = useTranslation(['security', 'auth', 'common']);
  const verify = useSecondFactorLogin();
  const signedIn = (): void => {
    toast({ title: t('auth:login.successTitle'), description: t('auth:login.successDescription') });
    window.location.reload();
  };
  const back = (
    <Button variant="secondary" onClick={onBack}>
      {t('secondStep.back')}
    </Button>
  );
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <PageCard
        eyebrow={t('common:appName')}
        title={step === 'verify' ? t('secondStep.title') : t('enrol.title')}
        description={step === 'verify' ? t('secondStep.intro') : t('enrol.requiredIntro')}
      >
        {step === 'verify' ? (
          <CodeForm
            autoFocus
            submitLabel={t('secondStep.verify')}
            pending={verify.isPending}
            onCode={(code) =>
              verify.mutate(code, {
                onSuccess: signedIn,
                onError: (error) =>
                  toast({
                    title: t('auth:login.failedTitle'),
                    description: errorText(t, error, t('common:anError')),
                    variant: 'destructive',
                  }),
              })
            }
          >
            {back}
          </CodeForm>
        ) : (
          <TotpEnrolment onDone={signedIn} onCancel={onBack} />
        )}
      </PageCard>
    </main>
  );
}
