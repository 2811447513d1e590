// Record a verdict on one access: justified, not justified or needs follow-up, with a note. Checked with the same
// schema as the server; a refusal (e.g. one's own access) is shown from its error code.
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { recordVerdictInput, REVIEW_NOTE_MAX, REVIEW_VERDICTS } from '../../../../contracts/privacy-review';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { RadioCards } from '../../../components/ui/radio-cards';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { useRecordVerdict } from '../api/privacy-reviews';

export function VerdictForm({ id }: { id: number }): React.JSX.Element {
  const { t } = useTranslation(['privacy', 'common', 'validation']);
  const [verdict, setVerdict] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useRecordVerdict(id);

  const onSubmit = (e: React.FormEvent): void => {
    e.preventDefault();
    const parsed = recordVerdictInput.safeParse({ verdict: verdict || undefined, note });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), t(i.message)])));
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: () => {
        toast({ title: t('saved') });
        setVerdict('');
        setNote('');
      },
      onError: (error) => toast({ title: t('saveFailed'), description: errorText(t, error, t('saveFailed')), variant: 'destructive' }),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('verdictTitle')}</CardTitle>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label={t('verdictTitle')}>
          <div className="flex flex-col gap-1.5">
            <RadioCards
              label={t('verdictLabel')}
              value={verdict}
              onValueChange={setVerdict}
              options={REVIEW_VERDICTS.map((v) => ({ value: v, title: t(`verdict.${v}`), description: t(`verdictHelp.${v}`) }))}
            />
            {errors.verdict ? (
              <p role="alert" className="text-sm text-danger-600">
                {errors.verdict}
              </p>
            ) : null}
          </div>
          <FormField label={t('note')} error={errors.note} required>
            <Textarea
              value={note}
              onChange={(e) => setNote(e.target.value)}
              placeholder={t('notePlaceholder')}
              maxLength={REVIEW_NOTE_MAX}
              rows={3}
            />
          </FormField>
          <div>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? t('saving') : t('submit')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
