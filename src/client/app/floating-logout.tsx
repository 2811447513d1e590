import { useTranslation } from 'react-i18next';
import { LogOut } from 'lucide-react';
import { Button } from '../components/ui/button';
import { useLogout } from '../features/auth/api/logout';

/** The floating logout button shown whenever someone is signed in (SPEC §2). */
export function FloatingLogout(): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  const logout = useLogout();
  return (
    <Button
      variant="secondary"
      className="fixed bottom-4 left-4 z-30 shadow-lg"
      onClick={() => logout.mutate()}
      disabled={logout.isPending}
    >
      <LogOut aria-hidden="true" className="h-4 w-4" />
      {t('logout')}
    </Button>
  );
}
