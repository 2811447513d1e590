// A record kind's add form without a request (issue 27, decision 061): the same fields (record-form-fields) and the
// same check (the kind's contract, as record-form-dialog) as an online add; a valid entry is handed to `onValid` with
// the body exactly as the server will judge it. The offline area queues it (composed in app/).
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../../lib/use-translation';
import type { RecordKind } from '../../../../contracts/kinds';
import { Button } from '../../../components/ui/button';
import { fieldsOf, formDefaults, type FormValues } from '../kinds';
import { payloadResolver } from './record-form-dialog';
import { RecordField } from './record-form-fields';

export interface RecordEntryFormProps {
  kind: RecordKind;
  /** The valid body; the form is cleared when it resolves. */
  onValid: (body: Record<string, unknown>) => Promise<void>;
  onCancel: () => void;
  submitLabel: string;
  pending: boolean;
}

export function RecordEntryForm({ kind, onValid, onCancel, submitLabel, pending }: RecordEntryFormProps): React.JSX.Element {
  const { t } = useTranslation(['record', 'validation']);
  const resolver = useMemo(() => payloadResolver(kind), [kind]);
  const form = useForm<FormValues>({ defaultValues: formDefaults(kind), resolver });
  const onSubmit = form.handleSubmit(async (parsed) => {
    await onValid(parsed as Record<string, unknown>);
    form.reset(formDefaults(kind));
  });
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
      {fieldsOf(kind).map((field) => (
        <div key={field.name} className={field.half ? '' : 'sm:col-span-2'}>
          <RecordField kind={kind} field={field} form={form} />
        </div>
      ))}
      <div className="flex flex-wrap justify-end gap-2 sm:col-span-2">
        <Button variant="secondary" onClick={onCancel}>
          {t('form.cancel')}
        </Button>
        <Button type="submit" pending={pending} pendingText={t('form.saving')}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
