// Routing of SPEC §2: the setup gate replaces every route while initial setup is needed.
import { lazy, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Redirect, Route, Switch } from 'wouter';
import { LanguageSelector } from '../components/language-selector';
import { currentUserQueryOptions } from '../features/auth/api/current-user';
import { LoginScreen } from '../features/auth/components/login-screen';
import { setupStatusQueryOptions } from '../features/setup/api/setup';
import { StatusScreen } from './status-screen';
import { SignedInShell } from './signed-in-shell';

const SetupScreen = lazy(() => import('../features/setup/components/setup-screen').then((m) => ({ default: m.SetupScreen })));

function LanguageCorner(): React.JSX.Element {
  return (
    <div className="fixed right-3 top-3 z-30">
      <LanguageSelector />
    </div>
  );
}

export function AppRouter(): React.JSX.Element {
  const { t } = useTranslation();
  const setup = useQuery(setupStatusQueryOptions);
  const user = useQuery({ ...currentUserQueryOptions, enabled: setup.data?.needsSetup === false });

  if (setup.isPending) return <StatusScreen text={t('checkingStatus')} />;
  if (setup.data?.needsSetup) {
    return (
      <Suspense fallback={<StatusScreen text={t('loading')} />}>
        <LanguageCorner />
        <SetupScreen />
      </Suspense>
    );
  }
  if (user.isPending) return <StatusScreen text={t('loading')} />;
  const signedIn = Boolean(user.data);

  return (
    <Suspense fallback={<StatusScreen text={t('loading')} />}>
      {signedIn ? null : <LanguageCorner />}
      <Switch>
        <Route path="/login">{signedIn ? <SignedInShell /> : <LoginScreen />}</Route>
        <Route path="/">{signedIn ? <SignedInShell /> : <Redirect to="/login" replace />}</Route>
        <Route>{signedIn ? <SignedInShell /> : <LoginScreen />}</Route>
      </Switch>
    </Suspense>
  );
}
