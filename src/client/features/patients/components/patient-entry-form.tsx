// The Add Patient fields and check without a request (issue 27, decision 061): a valid body is handed to `onValid`
// exactly as the server will judge it. The offline area queues it as a provisional registration (composed in app/).
import { addPatientInput, type AddPatientInput } from '../../../../contracts/patients';
import { Button } from '../../../components/ui/button';
import { PatientFields, usePatientForm } from './patient-fields';

export interface PatientEntryFormProps {
  onValid: (body: AddPatientInput) => Promise<void>;
  onCancel: () => void;
  submitLabel: string;
  cancelLabel: string;
  pending: boolean;
  pendingLabel: string;
  /** The id of the heading that names the form. */
  labelledBy: string;
  /** Shown above the fields (a refusal). */
  alert?: React.ReactNode;
}

export function PatientEntryForm(props: PatientEntryFormProps): React.JSX.Element {
  const { onValid, onCancel, submitLabel, cancelLabel, pending, pendingLabel, labelledBy, alert } = props;
  const form = usePatientForm();
  const onSubmit = form.handleSubmit((values) => onValid(addPatientInput.parse(values)));
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" aria-labelledby={labelledBy}>
      {alert ? <div className="sm:col-span-2">{alert}</div> : null}
      <PatientFields form={form} />
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <Button variant="secondary" onClick={onCancel}>
          {cancelLabel}
        </Button>
        <Button type="submit" pending={pending} pendingText={pendingLabel}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
