// Re-authentication with the password (issue 21 item 8): a user without a second factor who has confirmed access to
// many records this hour proves it is still them before the next one.
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { passwordReauthInput } from '../../../../contracts/mfa';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { useReauthPassword } from '../api/second-factor';

export function PasswordReauthForm({ onDone, children }: { onDone: () => void; children?: React.ReactNode }): React.JSX.Element {
  const { t } = useTranslation(['security', 'validation', 'common']);
  const reauth = useReauthPassword();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const onSubmit = (e: React.FormEvent): void => {
    e.preventDefault();
    const parsed = passwordReauthInput.safeParse({ password });
    if (!parsed.success) {
      setError(t(parsed.error.issues[0]?.message ?? 'validation:passwordRequired'));
      return;
    }
    setError(undefined);
    reauth.mutate(parsed.data.password, {
      onSuccess: () => {
        setPassword('');
        onDone();
      },
      onError: (err) => {
        setPassword(''); // typed again from the start
        toast({ title: t('reauth.passwordFailedTitle'), description: errorText(t, err, t('common:anError')), variant: 'destructive' });
      },
    });
  };
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <p className="text-sm font-medium">{t('reauth.passwordIntro')}</p>
      <FormField label={t('reauth.password')} error={error} required>
        <Input
          type="password"
          name="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
          maxLength={200}
          autoFocus
        />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" pending={reauth.isPending} pendingText={t('common:loading')}>
          {t('reauth.passwordConfirm')}
        </Button>
        {children}
      </div>
    </form>
  );
}
