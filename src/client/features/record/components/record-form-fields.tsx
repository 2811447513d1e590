// One field of the record's add and edit form (SPEC §5): the kind's field spec (kinds/) drawn as its control, with its
// translated label and its error beside it. A kind's coded field is a type-ahead over its catalogue: a pick sets the
// hidden code and code system (and what the kind fills in from the entry), typing after a pick clears them, free text
// is stored uncoded.
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from '../../../lib/use-translation';
import type { CodedKind, RecordKind } from '../../../../contracts/kinds';
import { CodeTypeahead, type CodedText } from '../../../components/code-typeahead';
import { FormField } from '../../../components/ui/form-field';
import { FormDateInput } from '../../../components/ui/form-date-input';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { Textarea } from '../../../components/ui/textarea';
import { kindView, type FieldSpec, type FormValues, type PickedCode } from '../kinds';

export function RecordField({
  kind,
  field,
  form,
}: {
  kind: RecordKind;
  field: FieldSpec;
  form: UseFormReturn<FormValues>;
}): React.JSX.Element {
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
