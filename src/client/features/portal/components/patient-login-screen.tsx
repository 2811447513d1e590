// Patient login (SPEC §2, §5, §8; decision 016): NC Number, Date of Birth and the PIN, 'Access My Records', links to
// the activation screen and the staff login; 'Missing information' when a field is empty; 'Login successful:
// Welcome, {first name}!' then /patient-portal.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { Link, useLocation } from 'wouter';
import type { PatientLoginInput } from '../../../../contracts/portal-login';
import { checkPatientLogin } from '../../../../contracts/portal-login-check';
import { LanguageSelector } from '../../../components/language-selector';
import { Button } from '../../../components/ui/button';
import { PageCard } from '../../../components/ui/page-card';
import { FormField } from '../../../components/ui/form-field';
import { DateInput } from '../../../components/ui/date-input';
import { FormAlert, useRefusal } from '../../../components/ui/form-alert';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { asApiError } from '../../../lib/api-error';
import { passkeyErrorText, passkeysSupported } from '../../../lib/passkeys';
import { usePatientLogin, usePatientPasskeyLogin } from '../api/patient-login';
import { forgetSignedInData } from '../api/portal-record';
import { useTextFields } from '../../../lib/use-text-fields';
import { portalRefusalText } from './portal-refusal';

type Errors = Partial<Record<keyof PatientLoginInput, string>>;

export function PatientLoginScreen(): React.JSX.Element {
  const { t } = useTranslation(['portal', 'validation', 'common']);
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const login = usePatientLogin();
  const passkey = usePatientPasskeyLogin();
  const { values, field, dateField } = useTextFields<PatientLoginInput>({ ncNumber: '', dateOfBirth: '', pin: '' });
  const [errors, setErrors] = useState<Errors>({});
  const { refusal, refuse } = useRefusal();
  const failureText = (error: Error): string => portalRefusalText(t, error, { code: 'PATIENT_LOGIN_FAILED', key: 'login.invalid' });

  const signedIn = (firstName: string): void => {
    forgetSignedInData(queryClient);
    toast({ title: t('login.successTitle'), description: t('login.successDescription', { name: firstName }) });
    navigate('/patient-portal');
  };
  // A passkey on this device names the patient (decision 026): nothing to type.
  const signInWithPasskey = (): void =>
    passkey.mutate(undefined, {
      onSuccess: (result) => signedIn(result.patient.firstName),
      onError: (error) => refuse(t('login.failedTitle'), asApiError(error) ? failureText(error) : passkeyErrorText(t, error)),
    });

  const onSubmit = (e: React.FormEvent): void => {
    e.preventDefault();
    // Spaces people type between digit groups are not part of the number.
    const input = { ncNumber: values.ncNumber.replace(/\s+/g, ''), dateOfBirth: values.dateOfBirth.trim(), pin: values.pin.trim() };
    if (!input.ncNumber || !input.dateOfBirth || !input.pin) {
      setErrors({});
      refuse(t('login.missingTitle'), t('login.missingDescription'));
      return;
    }
    // By hand, with the schema's messages: the schema library stays off this first page (issue 21 item 18).
    const parsed = checkPatientLogin(input);
    if (!parsed.success) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    login.mutate(parsed.data, {
      onSuccess: (result) => signedIn(result.patient.firstName),
      onError: (error) => refuse(t('login.failedTitle'), failureText(error)),
    });
  };

  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 px-4 py-16">
      <div className="fixed right-3 top-3 z-30">
        <LanguageSelector />
      </div>
      <PageCard eyebrow={t('common:appName')} title={t('login.title')} description={t('login.subtitle')}>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <FormAlert refusal={refusal} />
          <FormField label={t('login.ncNumber')} error={errors.ncNumber && t(errors.ncNumber)}>
            <Input
              inputMode="numeric"
              autoComplete="off"
              maxLength={14}
              placeholder={t('login.ncNumberPlaceholder')}
              {...field('ncNumber')}
            />
          </FormField>
          <FormField label={t('login.dateOfBirth')} error={errors.dateOfBirth && t(errors.dateOfBirth)}>
            <DateInput autoComplete="bday" {...dateField('dateOfBirth')} />
          </FormField>
          <FormField label={t('login.pin')} hint={t('login.pinHint')} error={errors.pin && t(errors.pin)}>
            <Input type="password" inputMode="numeric" autoComplete="current-password" maxLength={6} {...field('pin')} />
          </FormField>
          <Button type="submit" size="lg" pending={login.isPending} pendingText={t('login.submitting')}>
            {t('login.submit')}
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
        </form>
        <p className="mt-6 text-center text-sm">
          <Link href="/patient-activate" className="text-brand-700 underline">
            {t('login.activateLink')}
          </Link>
        </p>
        <p className="mt-3 text-center text-sm">
          <Link href="/login" className="text-brand-700 underline">
            {t('login.staffLink')}
          </Link>
        </p>
      </PageCard>
    </main>
  );
}
