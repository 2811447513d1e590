// Staff login (SPEC §2, §5, §8): email and password, 'Signing in...' while pending, a toast and a reload on success.
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { Link } from 'wouter';
import type { LoginInput } from '../../../../contracts/auth-login';
import { Button } from '../../../components/ui/button';
import { PageCard } from '../../../components/ui/page-card';
import { FormAlert, useRefusal } from '../../../components/ui/form-alert';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { passkeyErrorText, passkeysSupported } from '../../../lib/passkeys';
import { useLogin, usePasskeyLogin } from '../api/login';
import { useTextFields } from '../../../lib/use-text-fields';

// The form's schema (and with it the schema library) loads when the user starts on the form, not with the page
// (issue 21 item 18: the first page on a slow link).
const loginSchema = () => import('../../../../contracts/auth-login').then((m) => m.loginInput);

const RegistrationForm = lazy(() => import('./registration-form').then((m) => ({ default: m.RegistrationForm })));

/** What the second step accepts: an authenticator code, a passkey (decisions 024, 026). */
export type SecondFactorMethods = ('totp' | 'passkey')[];

/** The second sign-in step (decision 024), composed in app/ so this first page stays small. */
export type SecondStepView = (step: 'verify' | 'enrol', onBack: () => void, methods: SecondFactorMethods) => React.ReactNode;

export function LoginScreen({ secondStep }: { secondStep?: SecondStepView }): React.JSX.Element {
  const { t } = useTranslation(['auth', 'common', 'validation']);
  const [registering, setRegistering] = useState(false);
  const [pendingStep, setPendingStep] = useState<{ step: 'verify' | 'enrol'; methods: SecondFactorMethods } | null>(null);
  const login = useLogin();
  const passkey = usePasskeyLogin();
  // A plain controlled form: react-hook-form is left to the lazily loaded screens to keep this page small.
  const { values, setValues, field } = useTextFields<LoginInput>({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof LoginInput, string>>>({});
  const { refusal, refuse, clear } = useRefusal();

  const signedIn = (): void => {
    toast({ title: t('login.successTitle'), description: t('login.successDescription') });
    window.location.reload();
  };
  // A passkey is password and second factor at once (decision 026): no e-mail needed, the passkey names the account.
  const signInWithPasskey = (): void =>
    passkey.mutate(undefined, {
      onSuccess: signedIn,
      onError: (error) => refuse(t('login.failedTitle'), passkeyErrorText(t, error)),
    });

  const onSubmit = async (e: React.FormEvent): Promise<void> => {
    e.preventDefault();
    const parsed = (await loginSchema()).safeParse(values);
    if (!parsed.success) {
      const next: Partial<Record<keyof LoginInput, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof LoginInput] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    login.mutate(parsed.data, {
      onSuccess: (result) => {
        const pending = result as { secondFactor?: 'verify' | 'enrol'; methods?: SecondFactorMethods } | null;
        if (pending?.secondFactor) {
          setValues((v) => ({ ...v, password: '' }));
          setPendingStep({ step: pending.secondFactor, methods: pending.methods ?? ['totp'] });
          return;
        }
        signedIn();
      },
      onError: (error) => refuse(t('login.failedTitle'), errorText(t, error, t('login.invalidCredentials'))),
    });
  };

  if (pendingStep && secondStep) return <>{secondStep(pendingStep.step, () => setPendingStep(null), pendingStep.methods)}</>;

  if (registering) {
    return (
      <main className="flex min-h-screen items-center justify-center p-4">
        <PageCard eyebrow={t('common:appName')} title={t('register.title')} description={t('register.subtitle')} wide>
          <Suspense fallback={<p role="status">{t('common:loading')}</p>}>
            <RegistrationForm onBack={() => setRegistering(false)} />
          </Suspense>
        </PageCard>
      </main>
    );
  }

  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <PageCard eyebrow={t('common:appName')} title={t('login.title')} description={t('login.subtitle')}>
        <form noValidate onSubmit={(e) => void onSubmit(e)} onFocus={() => void loginSchema()} className="flex flex-col gap-4">
          <FormAlert refusal={refusal} />
          <FormField label={t('login.email')} error={errors.email && t(errors.email)}>
            <Input type="email" autoComplete="username" {...field('email')} />
          </FormField>
          <FormField label={t('login.password')} error={errors.password && t(errors.password)}>
            <Input type="password" autoComplete="current-password" {...field('password')} />
          </FormField>
          <Button type="submit" size="lg" pending={login.isPending} pendingText={t('login.signingIn')}>
            {t('login.signIn')}
          </Button>
          {passkeysSupported() ? (
            <Button
              variant="secondary"
              size="lg"
              onClick={signInWithPasskey}
              pending={passkey.isPending}
              pendingText={t('common:passkeys.waiting')}
            >
              {t('common:passkeys.signIn')}
            </Button>
          ) : null}
          <Button
            variant="secondary"
            size="lg"
            onClick={() => {
              clear(); // the refusal belongs to this sign-in attempt, not to the form shown again later
              setRegistering(true);
            }}
          >
            {t('login.createAccount')}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm">
          <Link href="/patient-login" className="text-brand-700 underline">
            {t('login.patientLink')}
          </Link>
        </p>
      </PageCard>
    </main>
  );
}
