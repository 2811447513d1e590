// The patient's PIN again before adding a passkey (issue 21 item 2): the passkeys card asks for it when the server
// answers REAUTH_REQUIRED, and makes the change once the PIN is confirmed.
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { pinField } from '../../../../contracts/portal-login';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { errorText } from '../../../lib/error-text';
import { usePatientReauth } from '../api/patient-reauth';

export function PortalPinReauth({ onDone, children }: { onDone: () => void; children?: React.ReactNode }): React.JSX.Element {
  const { t } = useTranslation(['portal', 'common', 'validation']);
  const reauth = usePatientReauth();
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | undefined>();
  const onSubmit = (e: React.FormEvent): void => {
    e.preventDefault();
    const parsed = pinField.safeParse(pin.trim());
    if (!parsed.success) {
      setError(t(parsed.error.issues[0]?.message ?? 'validation:pinFormat'));
      return;
    }
    setError(undefined);
    reauth.mutate(parsed.data, {
      onSuccess: () => {
        setPin('');
        onDone();
      },
      onError: (err) => setError(errorText(t, err, t('common:anError'))),
    });
  };
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-3">
      <p className="text-sm font-medium">{t('portal:reauth.intro')}</p>
      <FormField label={t('portal:login.pin')} error={error} required>
        <Input
          type="password"
          inputMode="numeric"
          autoComplete="current-password"
          maxLength={6}
          autoFocus
          name="portalPin"
          value={pin}
          onChange={(e) => setPin(e.target.value)}
        />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" pending={reauth.isPending} pendingText={t('portal:reauth.checking')}>
          {t('portal:reauth.confirm')}
        </Button>
        {children}
      </div>
    </form>
  );
}
