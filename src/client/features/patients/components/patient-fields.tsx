// The Add Patient form's fields and check (SPEC §5 Add Patient, addPatientInput), one definition for the online form
// (add-patient-form.tsx) and the offline registration (patient-entry-form.tsx, handed to the offline area by app/).
import { useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from '../../../lib/use-translation';
import { addPatientInput, SEXES, type AddPatientInput } from '../../../../contracts/patients';
import { FormDateInput } from '../../../components/ui/form-date-input';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';

/** The form's values: every field as typed (the contract turns them into the body). */
export type PatientForm = { [K in keyof AddPatientInput]: string };
export const EMPTY_PATIENT_FORM: PatientForm = {
  firstName: '',
  lastName: '',
  sex: '',
  dateOfBirth: '',
  contactNumber: '',
  address: '',
  nextOfKin: '',
  nextOfKinContact: '',
};

/** A form checked by addPatientInput, empty at first. */
export const usePatientForm = (): UseFormReturn<PatientForm> =>
  useForm<PatientForm>({ resolver: zodResolver(addPatientInput) as never, defaultValues: EMPTY_PATIENT_FORM });

/** The fields, for a two-column grid; `ncNumber` stands after the sex (the online form says it is generated). */
export function PatientFields({ form, ncNumber }: { form: UseFormReturn<PatientForm>; ncNumber?: React.ReactNode }): React.JSX.Element {
  const { t } = useTranslation(['patients', 'search', 'validation']);
  const err = (k: keyof PatientForm): string | undefined => {
    const m = form.formState.errors[k]?.message;
    return m ? t(m) : undefined;
  };
  return (
    <>
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
      {ncNumber}
      <FormField label={t('patients:contactNumber')} error={err('contactNumber')}>
        <Input type="tel" {...form.register('contactNumber')} maxLength={32} />
      </FormField>
      <div className="sm:col-span-2">
        <FormField label={t('patients:address')} error={err('address')}>
          <Input {...form.register('address')} maxLength={200} placeholder={t('patients:addressPlaceholder')} />
        </FormField>
      </div>
      <FormField label={t('patients:nextOfKin')} error={err('nextOfKin')}>
        <Input {...form.register('nextOfKin')} maxLength={200} />
      </FormField>
      <FormField label={t('patients:nextOfKinContact')} error={err('nextOfKinContact')}>
        <Input type="tel" {...form.register('nextOfKinContact')} maxLength={32} />
      </FormField>
    </>
  );
}
