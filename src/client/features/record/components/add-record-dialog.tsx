// One 'Add ...' dialog (SPEC §2, §5): the kind's fields, validated with the same schema as the server; on success a
// toast, the list refreshed, the form reset and the dialog closed; on failure a destructive toast (SPEC §8).
import { useMemo } from 'react';
import { useForm, type Resolver, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { RecordKind } from '../../../../contracts/kinds';
import { recordInputs } from '../../../../contracts/kinds';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { FormDateInput } from '../../../components/ui/form-date-input';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/toast';
import { asApiError } from '../../../lib/api-error';
import { errorText, issueKey } from '../../../lib/error-text';
import { useAddRecordItem } from '../api/record-mutations';
import { FORM_FIELDS, formDefaults, type FieldSpec } from './record-fields';

type FormValues = Record<string, string>;

/** Form values are text; number fields become numbers (blank: null) before the schema sees them. */
function toPayload(kind: RecordKind, values: FormValues): Record<string, unknown> {
  const payload: Record<string, unknown> = { ...values };
  for (const f of FORM_FIELDS[kind]) {
    if (f.control !== 'number') continue;
    const v = (values[f.name] ?? '').trim();
    payload[f.name] = v === '' ? null : Number(v);
  }
  return payload;
}

function payloadResolver(kind: RecordKind): Resolver<FormValues> {
  const resolve = zodResolver(recordInputs()[kind] as never) as unknown as Resolver<FormValues>;
  return (values, context, options) => resolve(toPayload(kind, values) as FormValues, context, options);
}

/** Field issues of a 400 from the server go beside their fields, like the form's own. */
function showServerIssues(form: UseFormReturn<FormValues>, kind: RecordKind, error: unknown, exists: (key: string) => boolean): void {
  const names = new Set(FORM_FIELDS[kind].map((f) => f.name));
  for (const issue of asApiError(error)?.issues ?? []) {
    if (names.has(issue.path)) form.setError(issue.path, { message: issueKey(issue.message, exists) });
  }
}

export interface AddRecordDialogProps {
  kind: RecordKind;
  patientId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function AddRecordDialog({ kind, patientId, open, onOpenChange }: AddRecordDialogProps): React.JSX.Element {
  const { t, i18n } = useTranslation(['record', 'validation', 'common']);
  const resolver = useMemo(() => payloadResolver(kind), [kind]);
  const form = useForm<FormValues>({ defaultValues: formDefaults(kind), resolver });
  const add = useAddRecordItem(kind, patientId);

  const onSubmit = form.handleSubmit((payload) =>
    add.mutate(payload, {
      onSuccess: () => {
        toast({ title: t(`toast.added.${kind}`) });
        form.reset(formDefaults(kind));
        onOpenChange(false);
      },
      onError: (error) => {
        showServerIssues(form, kind, error, (key) => i18n.exists(key));
        toast({ title: t(`toast.addFailed.${kind}`), description: errorText(t, error, t('common:anError')), variant: 'destructive' });
      },
    }),
  );

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t(`add.${kind}`)} size="md">
      <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
        {FORM_FIELDS[kind].map((field) => (
          <div key={field.name} className={field.half ? '' : 'sm:col-span-2'}>
            <RecordField field={field} form={form} />
          </div>
        ))}
        <div className="flex justify-end gap-2 sm:col-span-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? t('form.saving') : t('form.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function RecordField({ field, form }: { field: FieldSpec; form: UseFormReturn<FormValues> }): React.JSX.Element {
  const { t } = useTranslation(['record', 'validation']);
  const message = form.formState.errors[field.name]?.message;
  const props = form.register(field.name);
  const placeholder = field.placeholder ? t(`placeholders.${field.name}`) : undefined;
  let control: React.JSX.Element;
  if (field.control === 'select') {
    const options = (field.options ?? []).map((v) => ({ value: v, label: t(`${field.labels}.${v}`) }));
    control = <NativeSelect options={options} {...props} />;
  } else if (field.control === 'textarea') {
    control = <Textarea {...props} />;
  } else if (field.control === 'date') {
    control = <FormDateInput control={form.control} name={field.name} />;
  } else if (field.control === 'number') {
    control = <Input type="number" inputMode="decimal" step={field.step} {...props} />;
  } else {
    control = <Input type={field.control} placeholder={placeholder} {...props} />;
  }
  return (
    <FormField label={t(`fields.${field.name}`)} required={field.required} error={message ? t(message) : undefined}>
      {control}
    </FormField>
  );
}
