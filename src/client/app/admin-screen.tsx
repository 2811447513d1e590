// Administration panel (SPEC §2): 'Back to Home', tabs 'Add Patients' (default), 'Manage Users', the duplicate review
// queue, the immunization schedule, the second-factor policy, the FHIR API's system clients and the devices with
// offline mode (issue 27).
import { useState, type ReactNode } from 'react';
import { useTranslation } from '../lib/use-translation';
import { Button } from '../components/ui/button';
import { Tabs } from '../components/ui/tabs';
import { ManageUsers } from '../features/users/components/manage-users';
import { NameChangesPanel } from '../features/users/components/name-changes-panel';
import { MfaPolicyPanel } from '../features/second-factor/components/mfa-policy-panel';
import { TotpResetPanel } from '../features/second-factor/components/totp-reset-panel';
import { SystemClients } from '../features/api-clients/components/system-clients';
import { DevicesList } from '../features/devices/components/devices-list';
import { MainHeading } from '../components/ui/main-heading';

export function AdminScreen({
  addPatients,
  duplicates,
  schedule,
  canAddPatients,
  canManageUsers,
  permissions,
}: {
  addPatients: ReactNode;
  /** The duplicate review queue, for holders of patients.merge (decision 046); absent for others. */
  duplicates?: ReactNode;
  /** The immunization schedule's versions, for holders of immunizations.schedule (decision 044); absent for others. */
  schedule?: ReactNode;
  canAddPatients: boolean;
  canManageUsers: boolean;
  /** The signed-in user's permissions: a system client may be given only these (issue 21 item 5). */
  permissions: readonly string[];
}): React.JSX.Element {
  const { t } = useTranslation(['dashboard', 'security', 'users']);
  const [tab, setTab] = useState(canAddPatients ? 'patients' : canManageUsers ? 'users' : 'duplicates');
  return (
    <section aria-labelledby="admin-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <MainHeading id="admin-title" className="text-xl font-semibold">
          {t('admin.title')}
        </MainHeading>
        <Button variant="secondary" onClick={() => window.location.assign('/')}>
          {t('admin.backHome')}
        </Button>
      </div>
      <Tabs
        label={t('admin.title')}
        value={tab}
        onValueChange={setTab}
        items={[
          ...(canAddPatients ? [{ value: 'patients', label: t('admin.addPatients'), content: addPatients }] : []),
          // A lost authenticator app is reset where the users are managed (decision 024).
          ...(canManageUsers
            ? [
                {
                  value: 'users',
                  label: t('admin.manageUsers'),
                  content: (
                    <div className="flex flex-col gap-4">
                      <ManageUsers />
                      <NameChangesPanel />
                      <TotpResetPanel />
                    </div>
                  ),
                },
              ]
            : []),
          ...(duplicates ? [{ value: 'duplicates', label: t('duplicates.tab'), content: duplicates }] : []),
          ...(schedule ? [{ value: 'schedule', label: t('schedule.tab'), content: schedule }] : []),
          ...(canManageUsers ? [{ value: 'security', label: t('security:policy.title'), content: <MfaPolicyPanel /> }] : []),
          // FHIR system clients (decision 020): the same administrators as Manage Users.
          ...(canManageUsers
            ? [{ value: 'clients', label: t('users:clients.tab'), content: <SystemClients permissions={permissions} /> }]
            : []),
          // The devices with offline mode (issue 27): the same administrators, who may revoke one.
          ...(canManageUsers ? [{ value: 'devices', label: t('offline:devices.tab'), content: <DevicesList /> }] : []),
        ]}
      />
    </section>
  );
}
