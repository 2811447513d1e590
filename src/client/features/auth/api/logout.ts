import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/ui/toast';
import { apiRequest } from '../../../lib/api-client';

/** Logout (SPEC §4, §8): toast, clear every cached query, then /login; on failure still leave for /login. */
export function useLogout(): UseMutationResult<void, Error, void> {
  const queryClient = useQueryClient();
  const { t } = useTranslation('auth');
  const leave = (): void => {
    queryClient.clear();
    window.location.assign('/login');
  };
  return useMutation({
    mutationFn: async () => {
      await apiRequest('POST', '/api/auth/logout');
    },
    retry: false,
    onSuccess: () => {
      toast({ title: t('logout.successTitle'), description: t('logout.successDescription') });
      leave();
    },
    onError: () => {
      toast({ title: t('logout.failedTitle'), description: t('logout.failedDescription'), variant: 'destructive' });
      leave();
    },
  });
}
