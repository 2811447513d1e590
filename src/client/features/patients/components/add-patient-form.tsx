// Add Patient (SPEC §2, §5, §8): the NC number is generated on save; likely duplicates are shown for confirmation.
// The new patient's portal activation code comes back once and is shown as a printable slip (decision 016).
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { addPatientInput, SEXES, type AddPatientInput, type PatientSummary } from '../../../../contracts/patients';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { FormDateInput } from '../../../components/ui/form-date-input';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { duplicatesOf, useAddPatient } from '../api/add-patient';
import { formatDate } from '../../../lib/dates';
import { ActivationSlip } from './activation-slip';
import type { AddPatientResponse } from '../../../../contracts/patient-requests';

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

export function AddPatientForm(): React.JSX.Element {
  const { t } = useTranslation(['patients', 'search', 'validation', 'common']);
  const add = useAddPatient();
  const [duplicates, setDuplicates] = useState<PatientSummary[] | null>(null);
  const [created, setCreated] = useState<AddPatientResponse | null>(null);
  const form = useForm<Form>({ resolver: zodResolver(addPatientInput) as never, defaultValues: empty });
  const { errors } = form.formState;
  const err = (k: keyof Form): string | undefined => {
    const m = errors[k]?.message;
    return m ? t(m) : undefined;
  };

  const save = (values: Form, confirmDuplicate: boolean): void => {
    const input = addPatientInput.parse(values);
    add.mutate(
      { ...input, ...(confirmDuplicate ? { confirmDuplicate: true } : {}) },
      {
        onSuccess: (patient) => {
          toast({ title: t('toast.addedTitle'), description: t('toast.addedDescription') });
          setCreated(patient);
          setDuplicates(null);
          form.reset(empty);
        },
        onError: (error) => {
          const found = duplicatesOf(error);
          if (found) return setDuplicates(found);
          toast({ title: t('toast.failedTitle'), description: errorText(t, error, t('toast.failedFallback')), variant: 'destructive' });
        },
      },
    );
  };

  const onSubmit = form.handleSubmit((values) => save(values, false));
  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2"
      aria-label={t('title')}
    >
      {created ? (
        <div className="flex flex-col gap-3 sm:col-span-2">
          <p role="status" className="rounded-md bg-green-50 p-3 text-sm text-green-900">
            {t('created', { name: `${created.firstName} ${created.lastName}`, idNumber: created.idNumber })}
          </p>
          <ActivationSlip patient={created} activation={created.portalActivation} />
        </div>
      ) : null}
      <FormField label={t('firstName')} required error={err('firstName')}>
        <Input {...form.register('firstName')} maxLength={100} />
      </FormField>
      <FormField label={t('lastName')} required error={err('lastName')}>
        <Input {...form.register('lastName')} maxLength={100} />
      </FormField>
      <FormField label={t('dateOfBirth')} error={err('dateOfBirth')}>
        <FormDateInput control={form.control} name="dateOfBirth" />
      </FormField>
      <FormField label={t('sex')} required error={err('sex')}>
        <NativeSelect
          placeholder={t('sexPlaceholder')}
          options={SEXES.map((s) => ({ value: s, label: t(`search:sex.${s}`) }))}
          {...form.register('sex')}
        />
      </FormField>
      <FormField label={t('ncNumber')} hint={t('ncHint')}>
        <Input disabled placeholder={t('ncAuto')} />
      </FormField>
      <FormField label={t('contactNumber')} error={err('contactNumber')}>
        <Input type="tel" {...form.register('contactNumber')} maxLength={32} />
      </FormField>
      <div className="sm:col-span-2">
        <FormField label={t('address')} error={err('address')}>
          <Input {...form.register('address')} maxLength={200} placeholder={t('addressPlaceholder')} />
        </FormField>
      </div>
      <FormField label={t('nextOfKin')} error={err('nextOfKin')}>
        <Input {...form.register('nextOfKin')} maxLength={200} />
      </FormField>
      <FormField label={t('nextOfKinContact')} error={err('nextOfKinContact')}>
        <Input type="tel" {...form.register('nextOfKinContact')} maxLength={32} />
      </FormField>
      {duplicates ? (
        <div role="alert" className="rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm sm:col-span-2">
          <p className="font-semibold">{t('duplicates.title')}</p>
          <ul className="my-2 list-disc pl-5">
            {duplicates.map((d) => (
              <li key={d.id}>
                {d.lastName}, {d.firstName} · {formatDate(d.dateOfBirth)} · <span className="font-mono">{d.idNumber}</span>
              </li>
            ))}
          </ul>
          <div className="flex gap-2">
            <Button size="sm" onClick={form.handleSubmit((values) => save(values, true))}>
              {t('duplicates.addAnyway')}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setDuplicates(null)}>
              {t('duplicates.review')}
            </Button>
          </div>
        </div>
      ) : null}
      <div className="flex gap-2 sm:col-span-2">
        <Button
          variant="secondary"
          onClick={() => {
            form.reset(empty);
            setDuplicates(null);
            setCreated(null);
          }}
        >
          {t('clear')}
        </Button>
        <Button type="submit" pending={add.isPending} pendingText={t('adding')}>
          {t('submit')}
        </Button>
      </div>
    </form>
  );
}
