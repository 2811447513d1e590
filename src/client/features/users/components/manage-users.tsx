// Administration: Manage Users (SPEC §2): pending registrations with Approve and Reject; active users and counts.
// Reject cannot be undone, so it asks for confirmation first; Approve acts at once.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Dialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import {
  activeUsersQueryOptions,
  pendingUsersQueryOptions,
  useApproveUser,
  useRejectUser,
  userStatsQueryOptions,
} from '../api/manage-users';
import { formatDate } from '../../../lib/dates';

const day = (iso: string | null): string => formatDate(iso);

export function ManageUsers(): React.JSX.Element {
  const { t } = useTranslation(['users', 'common']);
  const pending = useQuery(pendingUsersQueryOptions);
  const active = useQuery(activeUsersQueryOptions);
  const stats = useQuery(userStatsQueryOptions);
  const approve = useApproveUser();
  const reject = useRejectUser();
  const roleLabel = (role: { name: string; displayName: string } | null): string =>
    role ? t(`common:roles.${role.name}`, { defaultValue: role.displayName }) : t('unknownRole');

  const [rejecting, setRejecting] = useState<{ id: string; name: string; email: string } | null>(null);
  const outcome = { approve: { done: 'approved', failed: 'approveFailed' }, reject: { done: 'rejected', failed: 'rejectFailed' } } as const;

  const decide = (id: string, kind: 'approve' | 'reject', onSettled?: () => void): void => {
    const mutation = kind === 'approve' ? approve : reject;
    const keys = outcome[kind];
    mutation.mutate(id, {
      onSuccess: () => {
        toast({ title: t(`toast.${keys.done}Title`), description: t(`toast.${keys.done}Description`) });
        // The row and its buttons are gone: focus goes to the list's heading, not to the page's top.
        if (kind === 'approve') document.getElementById('pending-title')?.focus();
      },
      onError: (error) =>
        toast({ title: t(`toast.${keys.failed}Title`), description: errorText(t, error, t('common:anError')), variant: 'destructive' }),
      ...(onSettled ? { onSettled } : {}),
    });
  };

  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle id="pending-title" tabIndex={-1} className="focus:outline-none">
            {t('pendingTitle')}
          </CardTitle>
        </CardHeader>
        <CardContent>
          {pending.isPending ? (
            <p role="status">{t('loadingPending')}</p>
          ) : pending.isError ? (
            <p role="alert" className="text-danger-600">
              {errorText(t, pending.error, t('common:anError'))}
            </p>
          ) : pending.data.length === 0 ? (
            <p className="text-slate-600">{t('noPending')}</p>
          ) : (
            <ul className="divide-y divide-slate-200">
              {pending.data.map((u) => (
                <li key={u.id} className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between">
                  <div className="text-sm">
                    <p className="font-semibold">
                      {u.firstName} {u.lastName}
                    </p>
                    <p className="text-slate-600">{u.email}</p>
                    <p className="text-slate-600">
                      {[
                        u.department ? t(`common:departments.${u.department}`, { defaultValue: u.department }) : '-',
                        u.facility ?? '-',
                        roleLabel(u.role),
                      ].join(' · ')}
                    </p>
                    <p className="text-slate-500">{t('registered', { date: day(u.createdAt) })}</p>
                  </div>
                  <div className="flex gap-2">
                    <Button
                      size="sm"
                      onClick={() => decide(u.id, 'approve')}
                      disabled={approve.isPending || reject.isPending}
                      aria-label={t('approveUser', { name: `${u.firstName} ${u.lastName}`, email: u.email })}
                    >
                      {t('approve')}
                    </Button>
                    <Button
                      size="sm"
                      variant="destructive"
                      onClick={() => setRejecting({ id: u.id, name: `${u.firstName} ${u.lastName}`, email: u.email })}
                      disabled={approve.isPending || reject.isPending}
                      aria-label={t('rejectUser', { name: `${u.firstName} ${u.lastName}`, email: u.email })}
                    >
                      {t('reject')}
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Dialog
        open={rejecting !== null}
        onOpenChange={(open) => !open && !reject.isPending && setRejecting(null)}
        title={t('rejectConfirm.title')}
        description={t('rejectConfirm.description', { name: rejecting?.name ?? '', email: rejecting?.email ?? '' })}
        returnFocus={() => document.getElementById('pending-title')}
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setRejecting(null)} disabled={reject.isPending}>
            {t('rejectConfirm.cancel')}
          </Button>
          <Button
            variant="destructive"
            onClick={() => rejecting && decide(rejecting.id, 'reject', () => setRejecting(null))}
            disabled={reject.isPending}
          >
            {t('rejectConfirm.confirm')}
          </Button>
        </div>
      </Dialog>
      <Card>
        <CardHeader>
          <CardTitle>{t('activeTitle')}</CardTitle>
          {stats.data ? (
            <p className="text-sm text-slate-600">
              {t('counts', { active: stats.data.byStatus.active ?? 0, pending: stats.data.byStatus.pending ?? 0 })}
            </p>
          ) : null}
        </CardHeader>
        <CardContent>
          {active.isPending ? (
            <p role="status">{t('common:loading')}</p>
          ) : active.isError ? (
            <p role="alert" className="text-danger-600">
              {errorText(t, active.error, t('common:anError'))}
            </p>
          ) : (
            // A narrow screen scrolls the table sideways: the region takes focus so a keyboard can scroll it too (axe).
            <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t('activeTitle')}>
              <table className="w-full text-left text-sm">
                <thead className="text-slate-500">
                  <tr>
                    <th className="py-2 pr-4">{t('name')}</th>
                    <th className="py-2 pr-4">{t('email')}</th>
                    <th className="py-2 pr-4">{t('role')}</th>
                    <th className="py-2 pr-4">{t('facility')}</th>
                    <th className="py-2">{t('lastLogin')}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {active.data.map((u) => (
                    <tr key={u.id}>
                      <td className="py-2 pr-4">
                        {u.firstName} {u.lastName}
                      </td>
                      <td className="py-2 pr-4">{u.email}</td>
                      <td className="py-2 pr-4">{roleLabel(u.role)}</td>
                      <td className="py-2 pr-4">{u.facility ?? '-'}</td>
                      <td className="py-2">{day(u.lastLoginAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
