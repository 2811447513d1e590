// The admin screen with the add-patient form (loaded when opened: dashboard-screen.tsx).
import { hasPermission, type CurrentUser } from '../features/auth/api/current-user';
import { DuplicateQueue } from '../features/duplicates/components/duplicate-queue';
import { ScheduleVersions } from '../features/immunization/components/schedule-versions';
import { AddPatientForm } from '../features/patients/components/add-patient-form';
import { AdminScreen } from './admin-screen';

export function AdminArea({ user }: { user: CurrentUser }): React.JSX.Element {
  return (
    <AdminScreen
      canAddPatients={hasPermission(user, 'patients.create')}
      canManageUsers={hasPermission(user, 'users.approve')}
      permissions={user.permissions}
      addPatients={<AddPatientForm />}
      duplicates={hasPermission(user, 'patients.merge') ? <DuplicateQueue /> : undefined}
      schedule={hasPermission(user, 'immunizations.schedule') ? <ScheduleVersions /> : undefined}
    />
  );
}
