// Providers and the router: composition only.
import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from '../lib/use-translation';
import { Toaster } from '../components/ui/toast';
import { OfflineEngineProvider } from '../features/offline/components/engine-context';
import { hasOfflineDevice, onDeviceFlagChange } from '../features/offline/device-flag';
import { loadOfflineEngine } from '../features/offline/load-engine';
import { loadNamespaces } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { AppRouter } from './router';

// Offline mode's status bar (issue 27), on every screen of a device where offline mode is switched on: its code, the
// engine's and its translations load only there (the first page carries only the flag's few lines).
const OfflineStatusBar = lazy(async () => {
  const [m] = await Promise.all([import('../features/offline/components/status-bar'), loadNamespaces('offline')]);
  return { default: m.OfflineStatusBar };
});

/** The bar once the flag has been seen on this page: it stays to say why the store was wiped. */
function OfflineStatusSlot(): React.JSX.Element | null {
  const flagged = useSyncExternalStore(onDeviceFlagChange, hasOfflineDevice, () => false);
  const [seen, setSeen] = useState(flagged);
  if (flagged && !seen) setSeen(true);
  if (!seen) return null;
  return (
    <Suspense fallback={null}>
      <OfflineStatusBar />
    </Suspense>
  );
}

function AppToaster(): React.JSX.Element {
  const { t } = useTranslation();
  return <Toaster regionLabel={t('notifications')} viewportLabel={t('notificationsRegion')} />;
}

export function App(): React.JSX.Element {
  return (
    <QueryClientProvider client={queryClient}>
      {/* The offline screens reach the page's one engine through this loader (its code loads when first asked for). */}
      <OfflineEngineProvider load={loadOfflineEngine}>
        <AppRouter />
      </OfflineEngineProvider>
      <OfflineStatusSlot />
      <AppToaster />
    </QueryClientProvider>
  );
}
