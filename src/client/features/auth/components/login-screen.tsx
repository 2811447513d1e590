// Staff login (SPEC §2, §5, §8): email and password, 'Signing in...' while pending, a toast and a reload on success.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { loginInput, type LoginInput } from '../../../../contracts/auth-login';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { useLogin } from '../api/login';

export function LoginScreen(): React.JSX.Element {
  const { t } = useTranslation(['auth', 'common', 'validation']);
  const login = useLogin();
  const form = useForm<LoginInput>({ resolver: zodResolver(loginInput), defaultValues: { email: '', password: '' } });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) =>
    login.mutate(values, {
      onSuccess: () => {
        toast({ title: t('login.successTitle'), description: t('login.successDescription') });
        window.location.reload();
      },
      onError: (error) =>
        toast({ title: t('login.failedTitle'), description: errorText(t, error, t('login.invalidCredentials')), variant: 'destructive' }),
    }),
  );

  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <Card className="w-full max-w-md">
        <CardHeader>
          <p className="text-sm font-medium text-brand-700">{t('common:appName')}</p>
          <h1 className="text-xl font-semibold text-slate-900">{t('login.title')}</h1>
          <CardDescription>{t('login.subtitle')}</CardDescription>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
            <FormField label={t('login.email')} error={errors.email?.message && t(errors.email.message)}>
              <Input type="email" autoComplete="username" {...form.register('email')} />
            </FormField>
            <FormField label={t('login.password')} error={errors.password?.message && t(errors.password.message)}>
              <Input type="password" autoComplete="current-password" {...form.register('password')} />
            </FormField>
            <Button type="submit" size="lg" disabled={login.isPending}>
              {login.isPending ? (
                <>
                  <Spinner /> {t('login.signingIn')}
                </>
              ) : (
                t('login.signIn')
              )}
            </Button>
          </form>
          <p className="mt-6 text-center text-sm">
            <Link href="/patient-login" className="text-brand-700 underline">
              {t('login.patientLink')}
            </Link>
          </p>
        </CardContent>
      </Card>
    </main>
  );
}
