// The dashboard's default main area: patient search, then the access confirmation, then the record.
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '../features/auth/api/current-user';
import { Card, CardContent, CardHeader, CardTitle } from '../components/ui/card';
import { displayNameOf } from '../lib/user-display';

export function PatientArea({ user }: { user: CurrentUser }): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('welcome', { name: displayNameOf(user) })}</CardTitle>
      </CardHeader>
      <CardContent />
    </Card>
  );
}
