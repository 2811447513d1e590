// One code field (6-digit TOTP or a recovery code) with its submit button: used by every second-factor step.
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { secondFactorCode } from '../../../../contracts/mfa';
import { Button } from '../../../components/ui/button';
import { FormAlert, type Refusal } from '../../../components/ui/form-alert';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';

export function CodeForm({
  submitLabel,
  pending,
  onCode,
  allowRecovery = true,
  autoFocus = false,
  refusal = null,
  children,
}: {
  submitLabel: string;
  pending: boolean;
  onCode: (code: string) => void;
  allowRecovery?: boolean;
  autoFocus?: boolean;
  /** Why the last code was refused: shown at the top and focused (the one rule for a refused step). */
  refusal?: Refusal | null;
  children?: React.ReactNode;
}): React.JSX.Element {
  const { t } = useTranslation(['security', 'validation']);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const onSubmit = (e: React.FormEvent): void => {
    e.preventDefault();
    const parsed = secondFactorCode.safeParse(code);
    if (!parsed.success || (!allowRecovery && !/^\d{6}$/.test(parsed.data))) {
      setError(t('validation:secondFactorCode'));
      return;
    }
    setError(undefined);
    onCode(parsed.data);
    setCode('');
  };
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <FormAlert refusal={refusal} />
      <FormField label={allowRecovery ? t('code.labelWithRecovery') : t('code.label')} error={error} required>
        <Input
          name="code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="one-time-code"
          inputMode={allowRecovery ? 'text' : 'numeric'}
          maxLength={32}
          // The field is the step's only purpose: focus it when the step opens (keyboard users start typing).
          autoFocus={autoFocus}
        />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" pending={pending} pendingText={t('code.checking')}>
          {submitLabel}
        </Button>
        {children}
      </div>
    </form>
  );
}
