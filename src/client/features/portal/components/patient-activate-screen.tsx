// Portal activation (decision 016): NC number, date of birth, the activation code from the clinic's slip, a new
// 6-digit PIN twice; on success the portal opens (the PIN signs in from then on). Also how a forgotten PIN is reset
// with a new code.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { Link, useLocation } from 'wouter';
import { patientActivateInput, type PatientActivateInput } from '../../../../contracts/portal-activate';
import { LanguageSelector } from '../../../components/language-selector';
import { Button } from '../../../components/ui/button';
import { PageCard } from '../../../components/ui/page-card';
import { FormField } from '../../../components/ui/form-field';
import { DateInput } from '../../../components/ui/date-input';
import { FormAlert, useRefusal } from '../../../components/ui/form-alert';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { usePatientActivate } from '../api/patient-activate';
import { forgetSignedInData } from '../api/portal-record';
import { useTextFields } from '../../../lib/use-text-fields';
import { portalRefusalText } from './portal-refusal';

type Values = Required<PatientActivateInput> & { confirmPin: string };
type Errors = Partial<Record<keyof Values, string>>;

const empty: Values = { ncNumber: '', dateOfBirth: '', activationCode: '', pin: '', confirmPin: '', currentPin: '' };

export function PatientActivateScreen(): React.JSX.Element {
  const { t } = useTranslation(['portal', 'validation', 'common']);
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const activate = usePatientActivate();
  const { values, field, dateField } = useTextFields<Values>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const { refusal, refuse } = useRefusal();
  const failureText = (error: Error): string => portalRefusalText(t, error, { code: 'PATIENT_ACTIVATION_FAILED', key: 'activate.invalid' });

  const onSubmit = (e: React.FormEvent): void => {
    e.preventDefault();
    const input = {
      ncNumber: values.ncNumber.replace(/\s+/g, ''),
      dateOfBirth: values.dateOfBirth.trim(),
      activationCode: values.activationCode.trim(),
      pin: values.pin.trim(),
    };
    // Only for a portal that already has a PIN (decision 031); left out when empty.
    const currentPin = values.currentPin.trim();
    if (Object.values(input).some((v) => !v) || !values.confirmPin.trim()) {
      setErrors({});
      refuse(t('activate.missingTitle'), t('activate.missingDescription'));
      return;
    }
    const parsed = patientActivateInput.safeParse(currentPin ? { ...input, currentPin } : input);
    const next: Errors = {};
    if (!parsed.success) for (const issue of parsed.error.issues) next[issue.path[0] as keyof Values] ??= issue.message;
    if (!next.pin && values.confirmPin.trim() !== input.pin) next.confirmPin = 'validation:pinsMismatch';
    setErrors(next);
    if (!parsed.success || next.confirmPin) return;
    activate.mutate(parsed.data, {
      onSuccess: (result) => {
        forgetSignedInData(queryClient);
        toast({ title: t('activate.successTitle'), description: t('activate.successDescription', { name: result.patient.firstName }) });
        navigate('/patient-portal');
      },
      onError: (error) => refuse(t('activate.failedTitle'), failureText(error)),
    });
  };

  const err = (name: keyof Values): string | undefined => (errors[name] ? t(errors[name]) : undefined);
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 px-4 py-16">
      <div className="fixed right-3 top-3 z-30">
        <LanguageSelector />
      </div>
      <PageCard eyebrow={t('common:appName')} title={t('activate.title')} description={t('activate.subtitle')}>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <FormAlert refusal={refusal} />
          <FormField label={t('login.ncNumber')} error={err('ncNumber')}>
            <Input
              inputMode="numeric"
              autoComplete="off"
              maxLength={14}
              placeholder={t('login.ncNumberPlaceholder')}
              {...field('ncNumber')}
            />
          </FormField>
          <FormField label={t('login.dateOfBirth')} error={err('dateOfBirth')}>
            <DateInput autoComplete="bday" {...dateField('dateOfBirth')} />
          </FormField>
          <FormField label={t('activate.code')} hint={t('activate.codeHint')} error={err('activationCode')}>
            <Input
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={12}
              className="font-mono uppercase"
              {...field('activationCode')}
            />
          </FormField>
          <FormField label={t('activate.currentPin')} hint={t('activate.currentPinHint')} error={err('currentPin')}>
            <Input type="password" inputMode="numeric" autoComplete="current-password" maxLength={6} {...field('currentPin')} />
          </FormField>
          <FormField label={t('activate.pin')} hint={t('activate.pinHint')} error={err('pin')}>
            <Input type="password" inputMode="numeric" autoComplete="new-password" maxLength={6} {...field('pin')} />
          </FormField>
          <FormField label={t('activate.confirmPin')} error={err('confirmPin')}>
            <Input type="password" inputMode="numeric" autoComplete="new-password" maxLength={6} {...field('confirmPin')} />
          </FormField>
          <Button type="submit" size="lg" pending={activate.isPending} pendingText={t('activate.submitting')}>
            {t('activate.submit')}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm">
          <Link href="/patient-login" className="text-brand-700 underline">
            {t('activate.loginLink')}
          </Link>
        </p>
      </PageCard>
    </main>
  );
}
