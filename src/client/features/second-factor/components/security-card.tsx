// My Profile's sign-in security (decision 024): the authenticator app's state, set-up and switch-off.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../components/ui/toast';
import { formatDate } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { mfaStatusQueryOptions, useDisableTotp } from '../api/second-factor';
import { CodeForm } from './code-form';
import { TotpEnrolment } from './totp-enrolment';

export function SecurityCard(): React.JSX.Element {
  const { t } = useTranslation(['security', 'common']);
  const status = useQuery(mfaStatusQueryOptions);
  const disable = useDisableTotp();
  const [mode, setMode] = useState<'view' | 'enrol' | 'disable'>('view');
  const s = status.data;

  let body: React.ReactNode;
  if (!s) body = <p role="status">{status.isError ? t('common:anError') : t('common:loading')}</p>;
  else if (mode === 'enrol') {
    body = (
      <TotpEnrolment
        onCancel={() => setMode('view')}
        onDone={() => {
          toast({ title: t('card.enabledToast') });
          setMode('view');
        }}
      />
    );
  } else if (mode === 'disable') {
    body = (
      <>
        <p className="text-sm text-slate-700">{t('card.disableIntro')}</p>
        <CodeForm
          autoFocus
          submitLabel={t('card.disable')}
          pending={disable.isPending}
          onCode={(code) =>
            disable.mutate(code, {
              onSuccess: () => {
                toast({ title: t('card.disabledToast') });
                setMode('view');
              },
              onError: (error) =>
                toast({ title: t('card.failedTitle'), description: errorText(t, error, t('common:anError')), variant: 'destructive' }),
            })
          }
        >
          <Button variant="secondary" onClick={() => setMode('view')}>
            {t('enrol.cancel')}
          </Button>
        </CodeForm>
      </>
    );
  } else {
    body = (
      <>
        <p className="font-medium" data-testid="totp-state">
          {s.totpEnabled ? t('card.enabled') : t('card.disabled')}
        </p>
        {s.totpEnabled && s.enabledAt ? (
          <p className="text-sm text-slate-600">
            {t('card.enabledSince', { date: formatDate(s.enabledAt) })} · {t('card.codesLeft', { count: s.recoveryCodesLeft })}
          </p>
        ) : null}
        <p className="text-sm text-slate-600">{t(`card.policy.${s.policy}`)}</p>
        <div>
          {!s.totpEnabled ? (
            <Button onClick={() => setMode('enrol')}>{t('card.setUp')}</Button>
          ) : s.policy === 'optional' ? (
            <Button variant="secondary" onClick={() => setMode('disable')}>
              {t('card.disable')}
            </Button>
          ) : null}
        </div>
      </>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('card.title')}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">{body}</CardContent>
    </Card>
  );
}
