// Re-authentication before break-the-glass (issue 12 item 3): a fresh code from the authenticator app.
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { useReauth } from '../api/second-factor';
import { CodeForm } from './code-form';

export function ReauthForm({ onDone, children }: { onDone: () => void; children?: React.ReactNode }): React.JSX.Element {
  const { t } = useTranslation(['security', 'common']);
  const reauth = useReauth();
  return (
    <div className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-3">
      <p className="text-sm font-medium">{t('reauth.intro')}</p>
      <CodeForm
        autoFocus
        submitLabel={t('reauth.confirm')}
        pending={reauth.isPending}
        onCode={(code) =>
          reauth.mutate(code, {
            onSuccess: onDone,
            onError: (error) =>
              toast({ title: t('reauth.failedTitle'), description: errorText(t, error, t('common:anError')), variant: 'destructive' }),
          })
        }
      >
        {children}
      </CodeForm>
    </div>
  );
}
