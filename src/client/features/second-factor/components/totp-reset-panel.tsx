// Manage Users: an administrator resets a user's lost second factor (decision 024; passkeys too, issue 21 item 13).
// Each user with an authenticator app or a passkey, with what they have and a Reset button; a confirmation dialog says
// what follows; the server records the reset.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Dialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { formatDate } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { totpUsersQueryOptions, useResetSecondFactors } from '../api/second-factor';

export function TotpResetPanel(): React.JSX.Element {
  const { t } = useTranslation(['security', 'common']);
  const users = useQuery(totpUsersQueryOptions);
  const reset = useResetSecondFactors();
  const [confirming, setConfirming] = useState<{ id: string; name: string; email: string } | null>(null);

  const doReset = (): void => {
    if (!confirming) return;
    reset.mutate(confirming.id, {
      onSuccess: () => {
        toast({ title: t('reset.done') });
        setConfirming(null);
      },
      onError: (error) => {
        toast({ title: t('reset.failedTitle'), description: errorText(t, error, t('common:anError')), variant: 'destructive' });
        setConfirming(null);
      },
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle id="totp-reset-title">{t('reset.title')}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <p className="text-sm text-slate-700">{t('reset.intro')}</p>
        {!users.data ? (
          <p role="status">{users.isError ? errorText(t, users.error, t('common:anError')) : t('common:loading')}</p>
        ) : users.data.length === 0 ? (
          <p className="text-sm text-slate-600">{t('reset.none')}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-200" aria-labelledby="totp-reset-title">
            {users.data.map((u) => {
              const name = `${u.firstName} ${u.lastName}`;
              return (
                <li key={u.userId} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="totp-user">
                  <div className="min-w-0 text-sm">
                    <p className="font-medium">{name}</p>
                    <p className="break-all text-slate-600">{u.email}</p>
                    <p className="text-slate-500">
                      {[u.totp ? t('reset.hasApp') : null, u.passkeys > 0 ? t('reset.hasPasskeys', { count: u.passkeys }) : null]
                        .filter(Boolean)
                        .join(' · ')}
                      {' · '}
                      {t('reset.since', { date: formatDate(u.enabledAt) })}
                    </p>
                  </div>
                  <Button
                    size="sm"
                    variant="destructive"
                    aria-label={t('reset.resetLabel', { name })}
                    disabled={reset.isPending}
                    onClick={() => setConfirming({ id: u.userId, name, email: u.email })}
                  >
                    {t('reset.reset')}
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
      <Dialog
        open={confirming !== null}
        onOpenChange={(open) => !open && !reset.isPending && setConfirming(null)}
        title={t('reset.confirmTitle')}
        description={t('reset.confirmDescription', { name: confirming?.name ?? '', email: confirming?.email ?? '' })}
        returnFocus={() => document.getElementById('totp-reset-title')}
      >
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirming(null)} disabled={reset.isPending}>
            {t('reset.cancel')}
          </Button>
          <Button variant="destructive" onClick={doReset} pending={reset.isPending}>
            {t('reset.confirm')}
          </Button>
        </div>
      </Dialog>
    </Card>
  );
}
