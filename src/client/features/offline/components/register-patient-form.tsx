// "Register a patient" offline (issue 27 item 4): the Add Patient form's fields and check (addPatientInput, as in
// features/patients); the engine queues a provisional patient, checked by the server's matcher on sync. No NC number
// and no portal slip here: the server gives them once it has the patient.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { addPatientInput, SEXES, type AddPatientInput } from '../../../../contracts/patients';
import { Button } from '../../../components/ui/button';
import { FormAlert, useRefusal } from '../../../components/ui/form-alert';
import { FormDateInput } from '../../../components/ui/form-date-input';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import type { OfflineEngine } from '../engine/offline-engine';

type Form = { [K in keyof AddPatientInput]: string };
const empty: Form = {
  firstName: '',
  lastName: '',
  sex: '',
  dateOfBirth: '',
  contactNumber: '',
  address: '',
  nextOfKin: '',
  nextOfKinContact: '',
};

export interface Registered {
  clientId: string;
  name: string;
}

export function RegisterPatientForm({
  engine,
  onRegistered,
  onCancel,
}: {
  engine: OfflineEngine;
  onRegistered: (patient: Registered) => void;
  onCancel: () => void;
}): React.JSX.Element {
  const { t } = useTranslation(['offline', 'patients', 'search', 'validation']);
  const form = useForm<Form>({ resolver: zodResolver(addPatientInput) as never, defaultValues: empty });
  const [pending, setPending] = useState(false);
  const { refusal, refuse } = useRefusal();
  const err = (k: keyof Form): string | undefined => {
    const m = form.formState.errors[k]?.message;
    return m ? t(m) : undefined;
  };
  const onSubmit = form.handleSubmit(async (values) => {
    const input = addPatientInput.parse(values);
    setPending(true);
    try {
      const queued = await engine.queueRegistration(input);
      onRegistered({ clientId: queued.clientId, name: `${input.lastName}, ${input.firstName}` });
    } catch {
      refuse(t('register.failed'), t('register.failedDescription'));
    } finally {
      setPending(false);
    }
  });
  return (
    <section aria-labelledby="offline-register" className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="offline-register" className="text-lg font-semibold">
        {t('register.title')}
      </h2>
      <p className="text-sm text-slate-700">{t('register.intro')}</p>
      <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" aria-labelledby="offline-register">
        <div className="sm:col-span-2">
          <FormAlert refusal={refusal} />
        </div>
        <FormField label={t('patients:firstName')} required error={err('firstName')}>
          <Input {...form.register('firstName')} maxLength={100} />
        </FormField>
        <FormField label={t('patients:lastName')} required error={err('lastName')}>
          <Input {...form.register('lastName')} maxLength={100} />
        </FormField>
        <FormField label={t('patients:dateOfBirth')} error={err('dateOfBirth')}>
          <FormDateInput control={form.control} name="dateOfBirth" />
        </FormField>
        <FormField label={t('patients:sex')} required error={err('sex')}>
          <NativeSelect
            placeholder={t('patients:sexPlaceholder')}
            options={SEXES.map((s) => ({ value: s, label: t(`search:sex.${s}`) }))}
            {...form.register('sex')}
          />
        </FormField>
        <FormField label={t('patients:contactNumber')} error={err('contactNumber')}>
          <Input type="tel" {...form.register('contactNumber')} maxLength={32} />
        </FormField>
        <FormField label={t('patients:address')} error={err('address')}>
          <Input {...form.register('address')} maxLength={200} />
        </FormField>
        <FormField label={t('patients:nextOfKin')} error={err('nextOfKin')}>
          <Input {...form.register('nextOfKin')} maxLength={200} />
        </FormField>
        <FormField label={t('patients:nextOfKinContact')} error={err('nextOfKinContact')}>
          <Input type="tel" {...form.register('nextOfKinContact')} maxLength={32} />
        </FormField>
        <div className="flex flex-wrap gap-2 sm:col-span-2">
          <Button variant="secondary" onClick={onCancel}>
            {t('register.cancel')}
          </Button>
          <Button type="submit" pending={pending} pendingText={t('register.saving')}>
            {t('register.submit')}
          </Button>
        </div>
      </form>
    </section>
  );
}
