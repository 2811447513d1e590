// First-time setup (SPEC §2): the form for the first administrator, then the progress overlay, then /login.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from '../../../lib/use-translation';
import { useLocation } from 'wouter';
import { FACILITIES, SETUP_DEPARTMENTS } from '../../../../contracts/constants';
import { setupAdminInput, type SetupAdminInput } from '../../../../contracts/setup';
import { Button } from '../../../components/ui/button';
import { PageCard } from '../../../components/ui/page-card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { toast } from '../../../components/ui/toast';
import { asApiError } from '../../../lib/api-error';
import { errorText, issueKey } from '../../../lib/error-text';
import { useMarkSetupDone, useSetupAdmin } from '../api/setup';
import { SetupOverlay } from './setup-overlay';
import { useSetupProgress } from './setup-progress';

const empty: SetupAdminInput = { firstName: '', lastName: '', email: '', password: '', confirmPassword: '', facility: '', department: '' };

export function SetupScreen(): React.JSX.Element {
  const { t, i18n } = useTranslation(['setup', 'common', 'validation']);
  const [, navigate] = useLocation();
  const mutation = useSetupAdmin();
  const markSetupDone = useMarkSetupDone();
  const [running, setRunning] = useState(false);
  const form = useForm<SetupAdminInput>({ resolver: zodResolver(setupAdminInput), defaultValues: empty });
  const { errors } = form.formState;
  const err = (name: keyof SetupAdminInput): string | undefined => {
    const message = errors[name]?.message;
    return message ? t(message) : undefined;
  };

  const progress = useSetupProgress(running, mutation.isSuccess, () => {
    toast({ title: t('toast.completeTitle'), description: t('toast.completeDescription') });
    markSetupDone();
    navigate('/login', { replace: true });
  });

  const onSubmit = form.handleSubmit((values) => {
    setRunning(true);
    mutation.mutate(values, {
      onError: (error) => {
        setRunning(false);
        // A refused password (too common, or with the user's name: issue 21 item 14) is marked at the field too.
        const issue = asApiError(error)?.issues.find((i) => i.path === 'password');
        if (issue) form.setError('password', { message: issueKey(issue.message, (k) => i18n.exists(k)) });
        toast({ title: t('toast.failedTitle'), description: errorText(t, error, t('toast.failedFallback')), variant: 'destructive' });
      },
    });
  });

  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <PageCard eyebrow={t('common:appName')} title={t('title')} description={t('subtitle')} wide>
        <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
          <FormField label={t('fields.firstName')} error={err('firstName')} required>
            <Input autoComplete="given-name" {...form.register('firstName')} />
          </FormField>
          <FormField label={t('fields.lastName')} error={err('lastName')} required>
            <Input autoComplete="family-name" {...form.register('lastName')} />
          </FormField>
          <div className="sm:col-span-2">
            <FormField label={t('fields.email')} error={err('email')} required>
              <Input type="email" autoComplete="email" {...form.register('email')} />
            </FormField>
          </div>
          <FormField label={t('fields.password')} error={err('password')} required>
            <Input type="password" autoComplete="new-password" {...form.register('password')} />
          </FormField>
          <FormField label={t('fields.confirmPassword')} error={err('confirmPassword')} required>
            <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
          </FormField>
          <FormField label={t('fields.facility')} error={err('facility')} required>
            <NativeSelect
              placeholder={t('fields.facilityPlaceholder')}
              options={FACILITIES.map((f) => ({ value: f, label: f }))}
              {...form.register('facility')}
            />
          </FormField>
          <FormField label={t('fields.department')} error={err('department')} required>
            <NativeSelect
              placeholder={t('fields.departmentPlaceholder')}
              options={SETUP_DEPARTMENTS.map((d) => ({ value: d, label: t(`departments.${d}`) }))}
              {...form.register('department')}
            />
          </FormField>
          <div className="sm:col-span-2">
            <Button type="submit" size="lg" className="w-full" disabled={running}>
              {t('submit')}
            </Button>
          </div>
        </form>
      </PageCard>
      {running ? <SetupOverlay progress={progress} /> : null}
    </main>
  );
}
