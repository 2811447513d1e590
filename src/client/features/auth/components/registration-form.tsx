// Staff registration (SPEC §2, §5): the account waits for an administrator's approval.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { FACILITIES, REGISTRATION_DEPARTMENTS } from '../../../../contracts/constants';
import { registerForm, type RegisterForm } from '../../../../contracts/auth';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { asApiError } from '../../../lib/api-error';
import { errorText, issueKey } from '../../../lib/error-text';
import { registrationRolesQueryOptions, useRegister } from '../api/register';

const empty = { firstName: '', lastName: '', email: '', password: '', confirmPassword: '', facility: '', phoneNumber: '' };

export function RegistrationForm({ onBack }: { onBack: () => void }): React.JSX.Element {
  const { t, i18n } = useTranslation(['auth', 'common', 'validation']);
  const roles = useQuery(registrationRolesQueryOptions);
  const registration = useRegister();
  const form = useForm<RegisterForm>({ resolver: zodResolver(registerForm), defaultValues: empty as unknown as RegisterForm });
  const { errors } = form.formState;
  const err = (name: keyof RegisterForm): string | undefined => {
    const m = errors[name]?.message;
    return m ? t(m) : undefined;
  };

  const onSubmit = form.handleSubmit((values) => {
    const { confirmPassword: _drop, ...input } = registerForm.parse(values);
    registration.mutate(input, {
      onSuccess: () => {
        toast({ title: t('register.successTitle'), description: t('register.successDescription') });
        onBack();
      },
      onError: (error) => {
        // A refused password (too common, or with the user's name: issue 21 item 14) is marked at the field too.
        const issue = asApiError(error)?.issues.find((i) => i.path === 'password');
        if (issue) form.setError('password', { message: issueKey(issue.message, (k) => i18n.exists(k)) });
        toast({ title: t('register.failedTitle'), description: errorText(t, error, t('register.failedFallback')), variant: 'destructive' });
      },
    });
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" aria-label={t('register.title')}>
      <FormField label={t('register.firstName')} error={err('firstName')} required>
        <Input autoComplete="given-name" {...form.register('firstName')} />
      </FormField>
      <FormField label={t('register.lastName')} error={err('lastName')} required>
        <Input autoComplete="family-name" {...form.register('lastName')} />
      </FormField>
      <div className="sm:col-span-2">
        <FormField label={t('register.email')} error={err('email')} required>
          <Input type="email" autoComplete="email" {...form.register('email')} />
        </FormField>
      </div>
      <FormField label={t('register.password')} error={err('password')} required>
        <Input type="password" autoComplete="new-password" {...form.register('password')} />
      </FormField>
      <FormField label={t('register.confirmPassword')} error={err('confirmPassword')} required>
        <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
      </FormField>
      <FormField label={t('register.department')} error={err('department')} required>
        <NativeSelect
          placeholder={t('register.departmentPlaceholder')}
          options={REGISTRATION_DEPARTMENTS.map((d) => ({ value: d, label: t(`common:departments.${d}`) }))}
          {...form.register('department')}
        />
      </FormField>
      <FormField label={t('register.facility')} error={err('facility')} required>
        <NativeSelect
          placeholder={t('register.facilityPlaceholder')}
          options={FACILITIES.map((f) => ({ value: f, label: f }))}
          {...form.register('facility')}
        />
      </FormField>
      <FormField label={t('register.role')} error={err('roleId')} required>
        <NativeSelect
          placeholder={roles.isPending ? t('common:loading') : t('register.rolePlaceholder')}
          options={(roles.data ?? []).map((r) => ({
            value: String(r.id),
            label: t(`common:roles.${r.name}`, { defaultValue: r.displayName }),
          }))}
          {...form.register('roleId', { setValueAs: (v: string) => (v === '' ? undefined : Number(v)) })}
        />
      </FormField>
      <FormField label={t('register.phone')} error={err('phoneNumber')}>
        <Input type="tel" autoComplete="tel" {...form.register('phoneNumber')} />
      </FormField>
      <div className="flex flex-col gap-2 sm:col-span-2 sm:flex-row-reverse">
        <Button type="submit" size="lg" className="sm:flex-1" disabled={registration.isPending}>
          {registration.isPending ? <Spinner /> : null}
          {t('register.submit')}
        </Button>
        <Button variant="secondary" size="lg" onClick={onBack}>
          {t('register.back')}
        </Button>
      </div>
    </form>
  );
}
