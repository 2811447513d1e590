import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { useLocation } from 'wouter';
import { toast } from '../../../components/ui/toast';
import { apiRequest } from '../../../lib/api-client';
import { forgetSignedInData } from './portal-record';

/** Patient logout (SPEC §4, §8): clears the cached user and record, then /patient-login, on failure too. */
export function usePatientLogout(): UseMutationResult<void, Error, void> {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const { t } = useTranslation('portal');
  const leave = (): void => {
    forgetSignedInData(queryClient);
    navigate('/patient-login', { replace: true });
  };
  return useMutation({
    mutationFn: async () => {
      await apiRequest('POST', '/api/auth/logout');
    },
    retry: false,
    onSuccess: () => {
      toast({ title: t('logout.successTitle') });
      leave();
    },
    onError: () => {
      toast({ title: t('logout.failedTitle'), variant: 'destructive' });
      leave();
    },
  });
}
