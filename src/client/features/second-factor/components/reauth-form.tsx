// Re-authentication before break-the-glass (issue 12 item 3) and before changing one's passkeys (decision 026): a fresh
// code from the authenticator app, or a passkey, whichever the user has; the password for a user with neither (issue 21
// item 8: past the hourly volume of record-access confirmations).
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';
import { FormAlert, useRefusal } from '../../../components/ui/form-alert';
import { errorText } from '../../../lib/error-text';
import { passkeyErrorText, passkeysSupported } from '../../../lib/passkeys';
import { mfaStatusQueryOptions, useReauth, useReauthPasskey } from '../api/second-factor';
import { CodeForm } from './code-form';
import { PasswordReauthForm } from './password-reauth-form';

export function ReauthForm({
  onDone,
  children,
  intro,
}: {
  onDone: () => void;
  children?: React.ReactNode;
  /** What the proof is for, when not break-the-glass (e.g. changing one's passkeys). */
  intro?: string;
}): React.JSX.Element {
  const { t } = useTranslation(['security', 'common']);
  const reauth = useReauth();
  const passkey = useReauthPasskey();
  const { refusal, refuse } = useRefusal();
  const status = useQuery(mfaStatusQueryOptions);
  // Until the status is known the code field shows (the common case); a passkey-only user gets the passkey alone.
  const withCode = status.data?.totpEnabled ?? true;
  const withPasskey = (status.data?.passkeys ?? 0) > 0 && passkeysSupported();
  // No second factor at all: the password (asked past the hourly volume of grants, issue 21 item 8).
  if (status.data && !status.data.totpEnabled && status.data.passkeys === 0) {
    return (
      <div className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-3">
        <PasswordReauthForm onDone={onDone}>{children}</PasswordReauthForm>
      </div>
    );
  }
  const passkeyButton = withPasskey ? (
    <Button
      variant={withCode ? 'secondary' : 'primary'}
      pending={passkey.isPending}
      pendingText={t('common:passkeys.waiting')}
      onClick={() =>
        passkey.mutate(undefined, {
          onSuccess: onDone,
          onError: (error) => refuse(t('reauth.failedTitle'), passkeyErrorText(t, error)),
        })
      }
    >
      {t('common:passkeys.use')}
    </Button>
  ) : null;
  return (
    <div className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-3">
      <p className="text-sm font-medium">{intro ?? (withCode ? t('reauth.intro') : t('common:passkeys.secondStepIntro'))}</p>
      {withCode ? (
        <CodeForm
          autoFocus
          submitLabel={t('reauth.confirm')}
          pending={reauth.isPending}
          refusal={refusal}
          onCode={(code) =>
            reauth.mutate(code, {
              onSuccess: onDone,
              onError: (error) => refuse(t('reauth.failedTitle'), errorText(t, error, t('common:anError'))),
            })
          }
        >
          {passkeyButton}
          {children}
        </CodeForm>
      ) : (
        <>
          <FormAlert refusal={refusal} />
          <div className="flex flex-wrap gap-2">
            {passkeyButton}
            {children}
          </div>
        </>
      )}
    </div>
  );
}
