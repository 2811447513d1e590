// One 'Add ...' dialog (SPEC §2, §5): the kind's fields (kinds/), validated with the same schema as the server; on
// success a toast, the list refreshed, the form reset and the dialog closed; on failure a destructive toast (SPEC §8).
// A kind's coded field is a type-ahead over its catalogue: a pick sets the hidden code and code system (and what the
// kind fills in from the entry), typing after a pick clears them, free text is stored uncoded. When the server
// answers 409 CONFIRMATION_REQUIRED the form stays as it is and the warnings are shown in an alert that takes focus;
// "Save anyway" sends the same body again, confirming every warning it named (with the override reason a
// contraindicated medicine-check warning needs: medicine-check-warnings.tsx).
import { useEffect, useMemo, useRef, useState } from 'react';
import { Controller, useForm, useWatch, type Resolver, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { CodedKind, RecordKind } from '../../../../contracts/kinds';
import { recordInputs } from '../../../../contracts/kinds';
import type { RecordWarning } from '../../../../contracts/record-warnings';
import { CodeTypeahead, type CodedText } from '../../../components/code-typeahead';
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
import { useAddRecordItem, warningsOf } from '../api/record-mutations';
import {
  MedicineChecksNotice,
  needsOverrideReason,
  OverrideReasonField,
  overrideReasonReady,
  WarningText,
} from './medicine-check-warnings';
import { codedField, fieldsOf, formDefaults, formPayload, kindView, type FieldSpec, type FormValues, type PickedCode } from '../kinds';

function payloadResolver(kind: RecordKind): Resolver<FormValues> {
  const resolve = zodResolver(recordInputs()[kind] as never) as unknown as Resolver<FormValues>;
  return (values, context, options) => resolve(formPayload(kind, values) as FormValues, context, options);
}

/** Field issues of a 400 from the server go beside their fields, like the form's own (a code's beside its text). */
function showServerIssues(form: UseFormReturn<FormValues>, kind: RecordKind, error: unknown, exists: (key: string) => boolean): void {
  const names = new Set(fieldsOf(kind).map((f) => f.name));
  const coded = codedField(kind);
  for (const issue of asApiError(error)?.issues ?? []) {
    const path = coded && (issue.path === 'code' || issue.path === 'codeSystem') ? coded.field : issue.path;
    if (names.has(path)) form.setError(path, { message: issueKey(issue.message, exists) });
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
  // The body the server asked to confirm, and its warnings; cleared when the form changes or the user cancels.
  const [pending, setPending] = useState<{ body: Record<string, unknown>; warnings: RecordWarning[] } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    const watching = form.watch((_values, { type }) => {
      if (type === 'change') setPending(null);
    });
    return () => watching.unsubscribe();
  }, [form]);

  const send = (body: Record<string, unknown>, confirm: readonly string[] = [], overrideReason?: string): void =>
    add.mutate(
      { body, confirm, ...(overrideReason ? { overrideReason } : {}) },
      {
        onSuccess: () => {
          toast({ title: t(`toast.added.${kind}`) });
          setPending(null);
          form.reset(formDefaults(kind));
          onOpenChange(false);
        },
        onError: (error) => {
          const warnings = warningsOf(error);
          if (warnings) return setPending({ body, warnings });
          setPending(null);
          showServerIssues(form, kind, error, (key) => i18n.exists(key));
          toast({ title: t(`toast.addFailed.${kind}`), description: errorText(t, error, t('common:anError')), variant: 'destructive' });
        },
      },
    );

  // The resolver hands over the schema's output: the body exactly as the server will judge it.
  const onSubmit = form.handleSubmit((parsed) => send(parsed as Record<string, unknown>));

  const cancelWarnings = (): void => {
    setPending(null);
    formRef.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t(`add.${kind}`)} size="md">
      <form ref={formRef} noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
        {fieldsOf(kind).map((field) => (
          <div key={field.name} className={field.half ? '' : 'sm:col-span-2'}>
            <RecordField kind={kind} field={field} form={form} />
          </div>
        ))}
        <MedicineChecksNotice kind={kind} />
        {pending ? (
          <WarningsAlert
            warnings={pending.warnings}
            saving={add.isPending}
            onConfirm={(overrideReason) =>
              send(
                pending.body,
                pending.warnings.map((w) => w.code),
                overrideReason,
              )
            }
            onCancel={cancelWarnings}
          />
        ) : null}
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

/** The server's warnings, translated (record:warnings.<CODE>, the English message when unknown); takes focus. */
function WarningsAlert({
  warnings,
  saving,
  onConfirm,
  onCancel,
}: {
  warnings: RecordWarning[];
  saving: boolean;
  onConfirm: (overrideReason?: string) => void;
  onCancel: () => void;
}): React.JSX.Element {
  const { t } = useTranslation('record');
  const ref = useRef<HTMLDivElement>(null);
  const [reason, setReason] = useState('');
  const needsReason = needsOverrideReason(warnings);
  useEffect(() => ref.current?.focus(), [warnings]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      aria-labelledby="record-warnings-title"
      className="flex flex-col gap-2 rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-950 outline-none focus-visible:ring-2 focus-visible:ring-yellow-700 sm:col-span-2"
    >
      <p id="record-warnings-title" className="font-semibold">
        {t('warnings.title')}
      </p>
      <ul className="list-disc pl-5">
        {warnings.map((w, i) => (
          <li key={`${w.code}-${i}`}>
            <WarningText warning={w} />
          </li>
        ))}
      </ul>
      {needsReason ? <OverrideReasonField value={reason} onChange={setReason} /> : null}
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          onClick={() => onConfirm(needsReason ? reason.trim() : undefined)}
          disabled={needsReason && !overrideReasonReady(reason)}
          pending={saving}
          pendingText={t('form.saving')}
        >
          {t('warnings.confirm')}
        </Button>
        <Button size="sm" variant="secondary" onClick={onCancel}>
          {t('form.cancel')}
        </Button>
      </div>
    </div>
  );
}

function RecordField({ kind, field, form }: { kind: RecordKind; field: FieldSpec; form: UseFormReturn<FormValues> }): React.JSX.Element {
  const { t } = useTranslation(['record', 'validation']);
  const message = form.formState.errors[field.name]?.message;
  const label = t(`fields.${field.label ?? field.name}`);
  const placeholder = field.placeholder ? t(`placeholders.${field.label ?? field.name}`) : undefined;
  let control: React.JSX.Element;
  if (field.control === 'coded') {
    control = <CodedInput kind={kind} field={field} form={form} />;
  } else if (field.control === 'select') {
    const options = (field.options ?? []).map((v) => ({ value: v, label: t(`${field.labels}.${v}`) }));
    control = <NativeSelect options={options} {...form.register(field.name)} />;
  } else if (field.control === 'textarea') {
    control = <Textarea {...form.register(field.name)} />;
  } else if (field.control === 'date') {
    control = <FormDateInput control={form.control} name={field.name} />;
  } else if (field.control === 'number') {
    control = <Input type="number" inputMode="decimal" step={field.step} placeholder={placeholder} {...form.register(field.name)} />;
  } else {
    control = <Input type={field.control} placeholder={placeholder} {...form.register(field.name)} />;
  }
  return (
    <FormField label={label} required={field.required} error={message ? t(message) : undefined}>
      {control}
    </FormField>
  );
}

/** The kind's coded field: the text, plus the hidden code and code system a pick sets and typing clears. */
function CodedInput({
  kind,
  field,
  form,
  ...aria
}: {
  kind: RecordKind;
  field: FieldSpec;
  form: UseFormReturn<FormValues>;
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}): React.JSX.Element {
  const { t } = useTranslation('record');
  const catalogue = kind as CodedKind; // a coded kind's catalogue is named after it
  const [code, codeSystem] = useWatch({ control: form.control, name: ['code', 'codeSystem'] });
  const setCode = (coded: { code: string; codeSystem: string } | null): void => {
    form.setValue('code', coded?.code ?? '');
    form.setValue('codeSystem', coded?.codeSystem ?? '');
  };
  const onPick = (entry: PickedCode): void => {
    for (const [name, value] of Object.entries(kindView(kind).onPick?.(entry) ?? {})) form.setValue(name, value, { shouldDirty: true });
  };
  return (
    <Controller
      control={form.control}
      name={field.name}
      render={({ field: f }) => {
        const value: CodedText = {
          text: f.value ?? '',
          coded: code && codeSystem ? { code, codeSystem, display: f.value ?? '' } : null,
        };
        return (
          <CodeTypeahead
            {...aria}
            ref={f.ref}
            name={f.name}
            kind={catalogue}
            listLabel={t('coded.suggestions')}
            value={value}
            onBlur={f.onBlur}
            onChange={(next) => {
              f.onChange(next.text);
              setCode(next.coded);
            }}
            onPick={onPick}
          />
        );
      }}
    />
  );
}
