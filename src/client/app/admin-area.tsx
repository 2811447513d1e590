// The admin screen with the add-patient form (loaded when opened: dashboard-screen.tsx). The duplicate review reads
// record entries through the record's own kind views (features do not import each other: composed here).
import { hasPermission, type CurrentUser } from '../features/auth/api/current-user';
import { DuplicateQueue } from '../features/duplicates/components/duplicate-queue';
import { kindView } from '../features/record/kinds';
import { ScheduleVersions } from '../features/immunization/components/schedule-versions';
import { AddPatientForm } from '../features/patients/components/add-patient-form';
import { displayNameOf } from '../lib/user-display';
import { AdminScreen } from './admin-screen';

export function AdminArea({ user }: { user: CurrentUser }): React.JSX.Element {
  return (
    <AdminScreen
      canAddPatients={hasPermission(user, 'patients.create')}
      canManageUsers={hasPermission(user, 'users.approve')}
      permissions={user.permissions}
      addPatients={<AddPatientForm />}
      duplicates={
        hasPermission(user, 'patients.merge') ? (
          <DuplicateQueue
            describeRow={(kind, row, t) => kindView(kind).item(row as never, t)}
            canOpenRecords={hasPermission(user, 'records.read')}
            userName={displayNameOf(user)}
          />
        ) : undefined
      }
      schedule={hasPermission(user, 'immunizations.schedule') ? <ScheduleVersions /> : undefined}
    />
  );
}
