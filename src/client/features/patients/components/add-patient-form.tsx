// Add Patient (SPEC §2, §5, §8): the NC number is generated on save; likely duplicates are shown for confirmation.
// The new patient's portal activation code comes back once and is shown as a printable slip (decision 016).
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { addPatientInput, type PatientSummary } from '../../../../contracts/patients';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { duplicatesOf, useAddPatient } from '../api/add-patient';
import { formatDate } from '../../../lib/dates';
import { ActivationSlip } from './activation-slip';
import { EMPTY_PATIENT_FORM, PatientFields, usePatientForm, type PatientForm } from './patient-fields';
import type { AddPatientResponse } from '../../../../contracts/patient-requests';

export function AddPatientForm(): React.JSX.Element {
  const { t } = useTranslation(['patients', 'search', 'validation', 'common']);
  const add = useAddPatient();
  const [duplicates, setDuplicates] = useState<PatientSummary[] | null>(null);
  const [created, setCreated] = useState<AddPatientResponse | null>(null);
  const form = usePatientForm();

  const save = (values: PatientForm, confirmDuplicate: boolean): void => {
    const input = addPatientInput.parse(values);
    add.mutate(
      { ...input, ...(confirmDuplicate ? { confirmDuplicate: true } : {}) },
      {
        onSuccess: (patient) => {
          toast({ title: t('toast.addedTitle'), description: t('toast.addedDescription') });
          setCreated(patient);
          setDuplicates(null);
          form.reset(EMPTY_PATIENT_FORM);
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
      <PatientFields
        form={form}
        ncNumber={
          <FormField label={t('ncNumber')} hint={t('ncHint')}>
            <Input disabled placeholder={t('ncAuto')} />
          </FormField>
        }
      />
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
            form.reset(EMPTY_PATIENT_FORM);
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
