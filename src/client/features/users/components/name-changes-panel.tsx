// Manage Users: a staff member's change of their own name waits for an administrator (issue 21 item 10). Each request
// shows the current and the asked-for name with the role, facility and e-mail, a warning when another member of staff
// already bears that name, and Approve / Reject buttons.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { nameChangesQueryOptions, useDecideNameChange } from '../api/manage-users';

export function NameChangesPanel(): React.JSX.Element {
  const { t } = useTranslation(['users', 'common']);
  const list = useQuery(nameChangesQueryOptions);
  const decide = useDecideNameChange();
  const run = (id: number, decision: 'approve' | 'reject'): void =>
    decide.mutate(
      { id, decision },
      {
        onSuccess: () => toast({ title: decision === 'approve' ? t('nameChanges.approved') : t('nameChanges.rejected') }),
        onError: (error) =>
          toast({ title: t('nameChanges.failedTitle'), description: errorText(t, error, t('common:anError')), variant: 'destructive' }),
      },
    );
  return (
    <Card>
      <CardHeader>
        <CardTitle id="name-changes-title">{t('nameChanges.title')}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <p className="text-sm text-slate-700">{t('nameChanges.intro')}</p>
        {!list.data ? (
          <p role="status">{list.isError ? errorText(t, list.error, t('common:anError')) : t('common:loading')}</p>
        ) : list.data.length === 0 ? (
          <p className="text-sm text-slate-600">{t('nameChanges.none')}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-200" aria-labelledby="name-changes-title">
            {list.data.map((c) => {
              const from = `${c.from.firstName} ${c.from.lastName}`;
              const to = `${c.to.firstName} ${c.to.lastName}`;
              const role = c.role ? t(`common:roles.${c.role.name}`, { defaultValue: c.role.displayName }) : '';
              return (
                <li key={c.id} className="flex flex-col gap-2 py-3" data-testid="name-change">
                  <p className="text-sm font-medium">{t('nameChanges.fromTo', { from, to })}</p>
                  <p className="break-all text-sm text-slate-600">
                    {[role, c.facility, c.email].filter(Boolean).join(' · ')} · {formatDateTime(c.requestedAt)}
                  </p>
                  {c.sameNameAs > 0 ? (
                    <p className="rounded-md bg-amber-50 p-2 text-sm text-amber-900">
                      {t('nameChanges.sameName', { count: c.sameNameAs })}
                    </p>
                  ) : null}
                  <div className="flex flex-wrap gap-2">
                    <Button
                      size="sm"
                      aria-label={t('nameChanges.approveLabel', { from, to })}
                      disabled={decide.isPending}
                      onClick={() => run(c.id, 'approve')}
                    >
                      {t('nameChanges.approve')}
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t('nameChanges.rejectLabel', { from, to })}
                      disabled={decide.isPending}
                      onClick={() => run(c.id, 'reject')}
                    >
                      {t('nameChanges.reject')}
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
