// Manage Users: the second-factor policy of each role (decision 024).
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { MFA_POLICIES, type MfaPolicy } from '../../../../contracts/mfa';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { NativeSelect } from '../../../components/ui/native-select';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { mfaPolicyQueryOptions, useSetRolePolicy } from '../api/second-factor';

export function MfaPolicyPanel(): React.JSX.Element {
  const { t } = useTranslation(['security', 'common']);
  const policies = useQuery(mfaPolicyQueryOptions);
  const save = useSetRolePolicy();
  const options = MFA_POLICIES.map((p) => ({ value: p, label: t(`policy.${p}`) }));
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('policy.title')}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <p className="text-sm text-slate-700">{t('policy.intro')}</p>
        {policies.data ? (
          <ul className="flex flex-col divide-y divide-slate-200">
            {policies.data.map((row) => (
              <li key={row.roleId} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <label htmlFor={`mfa-policy-${row.roleId}`} className="font-medium">
                  {t(`common:roles.${row.name}`, { defaultValue: row.displayName })}
                </label>
                <NativeSelect
                  id={`mfa-policy-${row.roleId}`}
                  options={options}
                  value={row.policy}
                  disabled={save.isPending}
                  onChange={(e) =>
                    save.mutate(
                      { roleId: row.roleId, policy: e.target.value as MfaPolicy },
                      {
                        onSuccess: () => toast({ title: t('policy.saved') }),
                        onError: (error) =>
                          toast({
                            title: t('policy.failedTitle'),
                            description: errorText(t, error, t('common:anError')),
                            variant: 'destructive',
                          }),
                      },
                    )
                  }
                  className="w-56 max-w-full"
                />
              </li>
            ))}
          </ul>
        ) : (
          <p role="status">{policies.isError ? t('common:anError') : t('common:loading')}</p>
        )}
      </CardContent>
    </Card>
  );
}
