// "Entered in error" (issue 23), what removing an entry from the record now means: the dialog asks why (required
// here, at most ENTERED_IN_ERROR_REASON_MAX characters as the contract allows) and says that the entry leaves the
// lists but stays in its history, with the reason, for auditors. DELETE /api/<kind>/{id} with `{ reason }`; on
// success the entry is gone from the list and focus goes to the section's heading (its row, and so its button, is gone).
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from '../../../lib/use-translation';
import { z } from 'zod';
import type { RecordKind } from '../../../../contracts/kinds';
import { ENTERED_IN_ERROR_REASON_MAX } from '../../../../contracts/record-versions';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { useEnterInError } from '../api/record-mutations';

const reasonForm = z.object({
  reason: z
    .string()
    .trim()
    .min(1, { error: 'validation:enteredInErrorReasonRequired' })
    .max(ENTERED_IN_ERROR_REASON_MAX, { error: 'validation:tooLong' }),
});
type ReasonForm = z.infer<typeof reasonForm>;

export interface EnteredInErrorDialogProps {
  kind: RecordKind;
  patientId: number;
  /** The entry to mark, with its title as the list shows it; null: closed. */
  entry: { id: number; title: string } | null;
  onClose: () => void;
  /** Where focus goes once the entry has left the list. */
  returnFocus: () => HTMLElement | null;
}

export function EnteredInErrorDialog({ kind, patientId, entry, onClose, returnFocus }: EnteredInErrorDialogProps): React.JSX.Element {
  const { t } = useTranslation(['record', 'validation', 'common']);
  const mark = useEnterInError(kind, patientId);
  const form = useForm<ReasonForm>({ resolver: zodResolver(reasonForm), defaultValues: { reason: '' } });
  const message = form.formState.errors.reason?.message;

  // Each entry starts with an empty reason.
  useEffect(() => {
    if (entry) form.reset({ reason: '' });
  }, [entry, form]);

  const onSubmit = form.handleSubmit(({ reason }) => {
    if (!entry) return;
    mark.mutate(
      { id: entry.id, reason },
      {
        onSuccess: () => {
          toast({ title: t(`toast.enteredInError.${kind}`) });
          onClose();
        },
        onError: (error) =>
          toast({
            title: t(`toast.enteredInErrorFailed.${kind}`),
            description: errorText(t, error, t('common:anError')),
            variant: 'destructive',
          }),
      },
    );
  });

  return (
    <Dialog
      open={entry !== null}
      onOpenChange={(open) => !open && !mark.isPending && onClose()}
      title={t('enteredInError.title')}
      description={t('enteredInError.description', { name: entry?.title ?? '' })}
      returnFocus={returnFocus}
    >
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4">
        <FormField
          label={t('enteredInError.reason')}
          required
          hint={t('enteredInError.reasonHint', { max: ENTERED_IN_ERROR_REASON_MAX })}
          error={message ? t(message) : undefined}
        >
          <Textarea maxLength={ENTERED_IN_ERROR_REASON_MAX} {...form.register('reason')} />
        </FormField>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={mark.isPending}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" variant="destructive" pending={mark.isPending} pendingText={t('enteredInError.marking')}>
            {t('enteredInError.confirm')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
