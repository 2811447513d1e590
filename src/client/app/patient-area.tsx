// The dashboard's default main area: patient search, then the access confirmation, then the record.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PatientSearchResult } from '../../contracts/patients';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../components/ui/card';
import type { CurrentUser } from '../features/auth/api/current-user';
import { hasPermission } from '../features/auth/api/current-user';
import { AccessDialog } from '../features/patients/components/access-dialog';
import { PatientSearch } from '../features/patients/components/patient-search';

export function PatientArea({ user }: { user: CurrentUser }): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  const [picked, setPicked] = useState<PatientSearchResult | null>(null);
  const [open, setOpen] = useState<PatientSearchResult | null>(null);

  if (!hasPermission(user, 'patients.search')) {
    return <p className="rounded-md bg-slate-100 p-4 text-slate-700">{t('noSearchPermission')}</p>;
  }
  if (open) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>{open.firstName} {open.lastName}</CardTitle>
          <p className="font-mono text-sm text-slate-600">{open.idNumber}</p>
        </CardHeader>
        <CardContent>
          <Button variant="secondary" onClick={() => setOpen(null)}>{t('backToSearch')}</Button>
        </CardContent>
      </Card>
    );
  }
  return (
    <>
      <PatientSearch onSelect={setPicked} />
      <AccessDialog
        patient={picked}
        onCancel={() => setPicked(null)}
        onGranted={(p) => {
          setPicked(null);
          setOpen(p);
        }}
      />
    </>
  );
}
