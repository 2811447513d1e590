import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { toastAfterReload } from '../../../components/ui/toast';
import { apiRequest } from '../../../lib/api-client';

/**
 * Logout (SPEC §4, §8): clear every cached query, then load /login afresh, which shows the toast; on failure still
 * leave for /login. `beforeSignOut` runs first, while the session still holds (app/ passes offline mode's wipe, issue
 * 27); its failure does not stop the sign-out.
 */
export function useLogout(beforeSignOut?: () => Promise<void>): UseMutationResult<void, Error, void> {
  const queryClient = useQueryClient();
  const { t } = useTranslation('auth');
  const leave = (): void => {
    queryClient.clear();
    window.location.assign('/login');
  };
  return useMutation({
    mutationFn: async () => {
      await beforeSignOut?.().catch((e: unknown) => console.warn('before sign-out', e));
      await apiRequest('POST', '/api/auth/logout');
    },
    retry: false,
    onSuccess: () => {
      toastAfterReload({ title: t('logout.successTitle'), description: t('logout.successDescription') });
      leave();
    },
    onError: () => {
      toastAfterReload({ title: t('logout.failedTitle'), description: t('logout.failedDescription'), variant: 'destructive' });
      leave();
    },
  });
}
