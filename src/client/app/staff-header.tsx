// The header for signed-in staff (SPEC §2 Header): title at left; user menu with name, e-mail, Profile, Log out.
import { useTranslation } from 'react-i18next';
import { LanguageSelector } from '../components/language-selector';
import { Avatar } from '../components/ui/avatar';
import { DropdownMenu } from '../components/ui/dropdown-menu';
import type { CurrentUser } from '../features/auth/api/current-user';
import { useLogout } from '../features/auth/api/logout';
import { displayNameOf, initialsOf } from '../lib/user-display';

export function StaffHeader({ user, onProfile }: { user: CurrentUser; onProfile: () => void }): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  const logout = useLogout();
  const name = displayNameOf(user);
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-14 max-w-7xl items-center justify-between gap-2 px-4">
        <a href="/" className="truncate font-semibold text-brand-700">
          {t('common:appName')}
        </a>
        <div className="flex items-center gap-2">
          <LanguageSelector />
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
              { key: 'logout', label: t('logout'), onSelect: () => logout.mutate() },
            ]}
          />
        </div>
      </div>
    </header>
  );
}
