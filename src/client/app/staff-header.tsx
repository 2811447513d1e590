// The header for signed-in staff (SPEC §2 Header): title at left; user menu with name, e-mail, Profile, Log out.
// SPEC §2's always-present logout button lives here, in the sticky header, where it covers no content
// (decision 023: a floating button over the page hid the left of 'Search Patients' on phones).
import { useRef } from 'react';
import { useTranslation } from '../lib/use-translation';
import { LogOut } from 'lucide-react';
import { Button } from '../components/ui/button';
import { LanguageSelector } from '../components/language-selector';
import { Avatar } from '../components/ui/avatar';
import { DropdownMenu } from '../components/ui/dropdown-menu';
import type { CurrentUser } from '../features/auth/api/current-user';
import { useLogout } from '../features/auth/api/logout';
import { useOfflineSignOutGuard } from '../features/offline/components/sign-out-guard';
import { wipeOfflineAtSignOut } from '../features/offline/sign-out';
import { displayNameOf, initialsOf } from '../lib/user-display';

export function StaffHeader({ user, onProfile }: { user: CurrentUser; onProfile: () => void }): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  const logout = useLogout(wipeOfflineAtSignOut);
  // Offline mode (issue 27): changes that have not reached the server are never wiped without the user's word.
  const logoutButton = useRef<HTMLButtonElement>(null);
  const signOut = useOfflineSignOutGuard(
    () => logout.mutate(),
    () => logoutButton.current,
  );
  const name = displayNameOf(user);
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-14 max-w-7xl items-center justify-between gap-2 px-4">
        <a href="/" className="truncate font-semibold text-brand-700">
          {t('common:appName')}
        </a>
        <div className="flex shrink-0 items-center gap-1 sm:gap-2">
          <LanguageSelector />
          <Button ref={logoutButton} variant="secondary" size="sm" onClick={signOut.request} disabled={logout.isPending}>
            <LogOut aria-hidden="true" className="h-4 w-4" />
            {t('logout')}
          </Button>
          <DropdownMenu
            triggerLabel={t('userMenu', { name })}
            trigger={
              <>
                <Avatar initials={initialsOf(user)} imageUrl={user.profileImageUrl} />
                <span className="hidden text-sm font-medium sm:inline">{name}</span>
              </>
            }
            header={
              <div>
                <p className="font-medium">{name}</p>
                <p className="text-xs text-slate-500">{user.email}</p>
              </div>
            }
            entries={[
              { key: 'profile', label: t('profile'), onSelect: onProfile },
              { key: 'logout', label: t('logout'), onSelect: signOut.request },
            ]}
          />
        </div>
      </div>
      {signOut.dialog}
    </header>
  );
}
