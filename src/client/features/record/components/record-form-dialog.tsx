// The record's one form dialog (SPEC §2, §5; issue 23): 'Add ...' with empty fields, or 'Edit ...' filled from an
// entry (the kind's fields, kinds/), validated with the same schema as the server; on success a toast, the list
// updated, the dialog closed; on failure a destructive toast (SPEC §8) and the server's field issues beside the fields.
// - 409 CONFIRMATION_REQUIRED: the form stays as it is and the warnings take focus; "Save anyway" sends the same body
//   again, confirming every warning it named (with the override reason a contraindicated medicine-check warning
//   needs: medicine-check-warnings.tsx).
// - An add carries an Idempotency-Key made for the submission: kept while the form and the confirmed warnings stay the
//   same (a retry, or Save again after a failure, cannot add twice), a new one once the user changes anything.
// - An edit names the version it was filled from (If-Match). When someone else changed the entry meanwhile (409
//   VERSION_CONFLICT, or 428 VERSION_REQUIRED) the alert names what changed and offers to load the current version;
//   nothing is merged or overwritten silently.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useForm, type Resolver, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { TFunction } from '../../../lib/translator';
import { useTranslation } from '../../../lib/use-translation';
import type { RecordKind, RecordRows } from '../../../../contracts/kinds';
import { recordInputs } from '../../../../contracts/kinds';
import type { RecordWarning } from '../../../../contracts/record-warnings';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { asApiError } from '../../../lib/api-error';
import { formatDate } from '../../../lib/dates';
import { errorText, issueKey } from '../../../lib/error-text';
import { conflictOf, useAddRecordItem, useEditRecordItem, warningsOf } from '../api/record-mutations';
import { recordListQueryOptions } from '../api/record-queries';
import { codedField, fieldLabelKey, fieldsOf, formDefaults, formPayload, formValuesOf, kindView, type FormValues } from '../kinds';
import { ConflictAlert, WarningsAlert, type ChangedField } from './record-form-alerts';
import { MedicineChecksNotice } from './medicine-check-warnings';
import { RecordField } from './record-form-fields';

type Row = RecordRows[RecordKind];

/** The form checked with the kind's contract (the same schema as the server), on the body the server will get. */
export function payloadResolver(kind: RecordKind): Resolver<FormValues> {
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

/** The fields a conflict names, with their values as stored now (dates and choices as the form shows them). */
function changedFields(kind: RecordKind, changed: readonly string[], current: Row, t: TFunction): ChangedField[] {
  const values = formValuesOf(kind, current);
  const coded = codedField(kind);
  const fields = [...new Set(changed.map((name) => (coded && (name === 'code' || name === 'codeSystem') ? coded.field : name)))];
  return fields.map((name) => {
    const spec = kindView(kind).fields.find((f) => f.name === name);
    const raw = values[name] ?? String((current as Record<string, unknown>)[name] ?? '');
    let value: string | null = raw === '' ? null : raw;
    if (value && spec?.control === 'date') value = formatDate(value);
    if (value && spec?.labels) value = t(`record:${spec.labels}.${value}`, { defaultValue: value });
    return { label: t(fieldLabelKey(kind, name), { defaultValue: name }), value };
  });
}

export interface RecordFormDialogProps {
  kind: RecordKind;
  patientId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The entry to edit; none for an add. */
  row?: Row | null;
}

export function RecordFormDialog({ kind, patientId, open, onOpenChange, row = null }: RecordFormDialogProps): React.JSX.Element {
  const { t, i18n } = useTranslation(['record', 'validation', 'common']);
  const queryClient = useQueryClient();
  const resolver = useMemo(() => payloadResolver(kind), [kind]);
  const form = useForm<FormValues>({ defaultValues: row ? formValuesOf(kind, row) : formDefaults(kind), resolver });
  const add = useAddRecordItem(kind, patientId);
  const edit = useEditRecordItem(kind, patientId);
  const saving = add.isPending || edit.isPending;
  // The version the form was filled from: what an edit names in If-Match.
  const [version, setVersion] = useState(row?.version ?? 0);
  // The body the server asked to confirm, and its warnings; cleared when the form changes or the user cancels.
  const [pending, setPending] = useState<{ body: Record<string, unknown>; warnings: RecordWarning[] } | null>(null);
  // Someone else changed the entry: the row as stored now when the server sent it, and what changed.
  const [conflict, setConflict] = useState<{ current: Row | null; changed: ChangedField[] } | null>(null);
  const [reloading, setReloading] = useState(false);
  const [reloaded, setReloaded] = useState(false);
  // The add's Idempotency-Key and the warnings it confirmed; dropped when the user changes the form.
  const idempotency = useRef<{ key: string; confirm: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    const watching = form.watch((_values, { type }) => {
      if (type !== 'change') return;
      setPending(null);
      setReloaded(false);
      idempotency.current = null;
    });
    return () => watching.unsubscribe();
  }, [form]);

  const keyFor = (confirm: readonly string[]): string => {
    const confirmed = confirm.join(',');
    if (idempotency.current?.confirm !== confirmed) idempotency.current = { key: crypto.randomUUID(), confirm: confirmed };
    return idempotency.current.key;
  };

  const focusFirstField = (): void => formRef.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();

  const succeeded = (): void => {
    toast({ title: t(row ? `toast.edited.${kind}` : `toast.added.${kind}`) });
    setPending(null);
    idempotency.current = null;
    if (!row) form.reset(formDefaults(kind));
    onOpenChange(false);
  };

  const failed = (body: Record<string, unknown>, error: unknown): void => {
    const warnings = warningsOf(error);
    if (warnings) return setPending({ body, warnings });
    setPending(null);
    const stale = conflictOf<Row>(error);
    if (stale) return setConflict({ current: stale.current, changed: changedFields(kind, stale.changed, stale.current, t) });
    if (asApiError(error)?.code === 'VERSION_REQUIRED') return setConflict({ current: null, changed: [] });
    showServerIssues(form, kind, error, (key) => i18n.exists(key));
    const title = t(row ? `toast.editFailed.${kind}` : `toast.addFailed.${kind}`);
    toast({ title, description: errorText(t, error, t('common:anError')), variant: 'destructive' });
  };

  const send = (body: Record<string, unknown>, confirm: readonly string[] = [], overrideReason?: string): void => {
    const handlers = { onSuccess: succeeded, onError: (error: Error) => failed(body, error) };
    const reason = overrideReason ? { overrideReason } : {};
    if (row) edit.mutate({ id: row.id, version, body, confirm, ...reason }, handlers);
    else add.mutate({ body, confirm, ...reason, idempotencyKey: keyFor(confirm) }, handlers);
  };

  // The resolver hands over the schema's output: the body exactly as the server will judge it.
  const onSubmit = form.handleSubmit((parsed) => send(parsed as Record<string, unknown>));

  /** The entry as stored now into the form: from the conflict, or read again (428 carries no row). */
  const loadCurrent = async (): Promise<void> => {
    if (!row || !conflict) return;
    let current = conflict.current;
    if (!current) {
      setReloading(true);
      try {
        const list = await queryClient.fetchQuery({ ...recordListQueryOptions(kind, patientId), staleTime: 0 });
        current = list.find((r) => r.id === row.id) ?? null;
      } catch {
        current = null;
      } finally {
        setReloading(false);
      }
    }
    if (!current) {
      toast({ title: t(`toast.editFailed.${kind}`), description: t('conflict.gone'), variant: 'destructive' });
      onOpenChange(false);
      return;
    }
    form.reset(formValuesOf(kind, current));
    setVersion(current.version);
    setConflict(null);
    setReloaded(true);
    idempotency.current = null;
    requestAnimationFrame(focusFirstField);
  };

  const cancelAlert = (): void => {
    setPending(null);
    focusFirstField();
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t(row ? `edit.${kind}` : `add.${kind}`)} size="md">
      <form ref={formRef} noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
        {reloaded ? (
          <p role="status" className="rounded-md bg-slate-100 p-2 text-sm text-slate-800 sm:col-span-2">
            {t('conflict.loaded')}
          </p>
        ) : null}
        {fieldsOf(kind).map((field) => (
          <div key={field.name} className={field.half ? '' : 'sm:col-span-2'}>
            <RecordField kind={kind} field={field} form={form} />
          </div>
        ))}
        <MedicineChecksNotice kind={kind} />
        {pending ? (
          <WarningsAlert
            warnings={pending.warnings}
            saving={saving}
            onConfirm={(overrideReason) =>
              send(
                pending.body,
                pending.warnings.map((w) => w.code),
                overrideReason,
              )
            }
            onCancel={cancelAlert}
          />
        ) : null}
        {conflict ? (
          <ConflictAlert
            changed={conflict.changed}
            loading={reloading}
            onLoad={() => void loadCurrent()}
            onCancel={() => onOpenChange(false)}
          />
        ) : null}
        <div className="flex justify-end gap-2 sm:col-span-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" disabled={conflict !== null} pending={saving} pendingText={t('form.saving')}>
            {t('form.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
