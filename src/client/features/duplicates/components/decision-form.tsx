// The decisions "not the same person" (with the reviewer's reason; never proposed again) and "skip" on one pair
// (decision 046), on the queue's card and in the side-by-side review.
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { duplicateDecisionInput, DECISION_REASON_MAX, type DuplicatePair } from '../../../../contracts/duplicates';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { useDecide } from '../api/duplicates';

export function DecisionForm({ pair, onDecided }: { pair: Pick<DuplicatePair, 'id'>; onDecided?: () => void }): React.JSX.Element {
  const { t } = useTranslation(['dashboard', 'validation']);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const decide = useDecide(pair.id);
  const send = (input: unknown): void => {
    const parsed = duplicateDecisionInput.safeParse(input);
    if (!parsed.success) {
      setError(t(parsed.error.issues[0]!.message));
      return;
    }
    setError(undefined);
    // mutateAsync: on the queue the decided pair's card leaves the list (unmounted) before a mutate callback would run.
    decide
      .mutateAsync(parsed.data)
      .then((answer) => {
        toast({ title: t(`duplicates.saved.${answer.status}`) });
        onDecided?.();
      })
      .catch((e: unknown) =>
        toast({ title: t('duplicates.failed'), description: errorText(t, e, t('duplicates.failed')), variant: 'destructive' }),
      );
  };
  return (
    <form
      noValidate
      aria-label={t('duplicates.decisionLabel', { id: pair.id })}
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        send({ decision: 'different', reason });
      }}
    >
      <FormField label={t('duplicates.reason')} error={error} required>
        <Textarea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={DECISION_REASON_MAX} rows={2} />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={decide.isPending}>
          {t('duplicates.different')}
        </Button>
        <Button
          type="button"
          variant="secondary"
          disabled={decide.isPending}
          onClick={() => send({ decision: 'skip', reason: reason || undefined })}
        >
          {t('duplicates.skip')}
        </Button>
      </div>
    </form>
  );
}
