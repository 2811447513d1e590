// The profile screen with the staff member's second factors (loaded when the profile is opened: dashboard-screen.tsx).
import type { CurrentUser } from '../features/auth/api/current-user';
import { PasskeysCard } from '../features/passkeys/components/passkeys-card';
import { ProfileScreen } from '../features/profile/components/profile-screen';
import { ReauthForm } from '../features/second-factor/components/reauth-form';
import { RecoveryCodes } from '../features/second-factor/components/recovery-codes';
import { SecurityCard } from '../features/second-factor/components/security-card';
import { EnableOfflineCard } from '../features/offline/components/enable-offline-card';

export function ProfileArea({ user, onClose }: { user: CurrentUser; onClose: () => void }): React.JSX.Element {
  return (
    <ProfileScreen
      user={user}
      onClose={onClose}
      security={
        <>
          <SecurityCard />
          <PasskeysCard
            recoveryCodes={(codes, onDone) => <RecoveryCodes codes={codes} onDone={onDone} forPasskey />}
            reauth={(onDone, cancel, intro) => (
              <ReauthForm onDone={onDone} intro={intro}>
                {cancel}
              </ReauthForm>
            )}
          />
          {/* Offline mode on this device (issue 27): asks for a fresh second factor as break-the-glass does. */}
          <EnableOfflineCard
            reauth={(onDone, cancel, intro) => (
              <ReauthForm onDone={onDone} intro={intro}>
                {cancel}
              </ReauthForm>
            )}
          />
        </>
      }
    />
  );
}
