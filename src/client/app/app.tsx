// Providers and the router: composition only.
import { QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Toaster } from '../components/ui/toast';
import { queryClient } from '../lib/query-client';
import { AppRouter } from './router';

function AppToaster(): React.JSX.Element {
  const { t } = useTranslation();
  return <Toaster regionLabel={t('notifications')} viewportLabel={t('notificationsRegion')} />;
}

export function App(): React.JSX.Element {
  return (
    <QueryClientProvider client={queryClient}>
      <AppRouter />
      <AppToaster />
    </QueryClientProvider>
  );
}
