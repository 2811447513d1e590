// The signed-in person's passkeys (decision 026): the list with when each was added and last used, adding one under a
// name (the browser then asks the device), and removing one. Staff see it on My Profile, patients in the portal. Staff
// whose second factor was last proved more than a few minutes ago prove it again first (REAUTH_REQUIRED: `reauth`,
// composed in app/), and the change they asked for then goes ahead.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { passkeyName } from '../../../../contracts/passkeys';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { errorCodeOf } from '../../../lib/api-error';
import { passkeyErrorText, passkeysSupported } from '../../../lib/passkeys';
import { passkeyListQueryOptions, useAddPasskey, useRemovePasskey } from '../api/passkeys';

/** The fresh second factor a change asks for: `onDone` after it is proved, `cancel` the way back, `intro` what it is for. */
export type PasskeysReauth = (onDone: () => void, cancel: React.ReactNode, intro: string) => React.ReactNode;

type Change = { kind: 'add'; name: string } | { kind: 'remove'; id: string };

/** The recovery codes a first passkey comes with (issue 21 item 13), shown once; composed in app/. */
export type RecoveryCodesView = (codes: string[], onDone: () => void) => React.ReactNode;

export function PasskeysCard({ reauth, recoveryCodes }: { reauth?: PasskeysReauth; recoveryCodes?: RecoveryCodesView }): React.JSX.Element {
  const { t } = useTranslation(['common', 'validation']);
  const list = useQuery(passkeyListQueryOptions);
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  // The change waiting for the second factor to be proved again.
  const [waiting, setWaiting] = useState<Change | null>(null);
  // Remove asks first (issue 21 item 17): a passkey may be the only second factor.
  const [confirmingRemove, setConfirmingRemove] = useState<{ id: string; name: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const failedFor =
    (change: Change) =>
    (e: unknown): void => {
      if (reauth && errorCodeOf(e) === 'REAUTH_REQUIRED') {
        setWaiting(change);
        return;
      }
      toast({ title: t('passkeys.failedTitle'), description: passkeyErrorText(t, e), variant: 'destructive' });
    };
  const run = (change: Change): void => {
    if (change.kind === 'add')
      add.mutate(change.name, {
        onSuccess: (added) => {
          setName('');
          toast({ title: t('passkeys.added') });
          if (added.recoveryCodes?.length) setCodes(added.recoveryCodes);
        },
        onError: failedFor(change),
      });
    else
      remove.mutate(change.id, {
        onSuccess: () => toast({ title: t('passkeys.removed') }),
        onError: failedFor(change),
        onSettled: () => setConfirmingRemove(null),
      });
  };

  const onSubmit = (e: React.FormEvent): void => {
    e.preventDefault();
    const parsed = passkeyName.safeParse(name);
    if (!parsed.success) {
      setError(t(parsed.error.issues[0]?.message ?? 'validation:passkeyName'));
      return;
    }
    setError(undefined);
    run({ kind: 'add', name: parsed.data });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('passkeys.title')}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <p className="text-sm text-slate-700">{t('passkeys.intro')}</p>
        {!list.data ? (
          <p role="status">{list.isError ? t('anError') : t('loading')}</p>
        ) : list.data.length === 0 ? (
          <p className="text-sm text-slate-600">{t('passkeys.none')}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-200 rounded-md border border-slate-200" aria-label={t('passkeys.title')}>
            {list.data.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 p-3" data-testid="passkey-item">
                <div className="min-w-0">
                  <p className="break-words font-medium">{p.name}</p>
                  <p className="text-sm text-slate-600">
                    {t('passkeys.addedOn', { date: formatDate(p.createdAt) })} ·{' '}
                    {p.lastUsedAt ? t('passkeys.lastUsed', { date: formatDateTime(p.lastUsedAt) }) : t('passkeys.neverUsed')}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={t('passkeys.removeLabel', { name: p.name })}
                  pending={remove.isPending && remove.variables === p.id}
                  onClick={() => setConfirmingRemove({ id: p.id, name: p.name })}
                >
                  {t('passkeys.remove')}
                </Button>
              </li>
            ))}
          </ul>
        )}
        <ConfirmDialog
          open={confirmingRemove !== null}
          onCancel={() => setConfirmingRemove(null)}
          onConfirm={() => confirmingRemove && run({ kind: 'remove', id: confirmingRemove.id })}
          title={t('passkeys.removeConfirmTitle')}
          description={t('passkeys.removeConfirmDescription', { name: confirmingRemove?.name ?? '' })}
          confirmText={t('passkeys.removeConfirm')}
          cancelText={t('passkeys.cancel')}
          pending={remove.isPending}
          pendingText={t('passkeys.removing')}
        />
        {codes && recoveryCodes ? recoveryCodes(codes, () => setCodes(null)) : null}
        {waiting && reauth
          ? reauth(
              () => {
                setWaiting(null);
                run(waiting);
              },
              <Button variant="secondary" onClick={() => setWaiting(null)}>
                {t('passkeys.cancel')}
              </Button>,
              t('passkeys.reauthIntro'),
            )
          : null}
        {passkeysSupported() ? (
          <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <div className="sm:flex-1">
              <FormField label={t('passkeys.name')} hint={t('passkeys.nameHint')} error={error} required>
                <Input name="passkeyName" value={name} maxLength={64} onChange={(e) => setName(e.target.value)} />
              </FormField>
            </div>
            <Button type="submit" pending={add.isPending} pendingText={t('passkeys.adding')}>
              {t('passkeys.add')}
            </Button>
          </form>
        ) : (
          <p className="text-sm text-slate-600">{t('passkeys.unsupported')}</p>
        )}
      </CardContent>
    </Card>
  );
}
