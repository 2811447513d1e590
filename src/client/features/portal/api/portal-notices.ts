import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { PortalNotices } from '../../../../contracts/portal';
import { apiJson } from '../../../lib/api-client';
import { retryUnlessRefused } from '../../../lib/api-error';
import { urlKey } from '../../../lib/query-keys';

const noticesKey = urlKey('/api/patient-portal/notices');

/** GET /api/patient-portal/notices (decision 031): a reset two staff members confirmed, until dismissed. */
export const portalNoticesQueryOptions = queryOptions<PortalNotices>({ queryKey: noticesKey, retry: retryUnlessRefused });

/** POST /api/patient-portal/notices/dismiss. */
export function useDismissPortalNotices(): UseMutationResult<unknown, Error, void> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<unknown>('POST', '/api/patient-portal/notices/dismiss'),
    retry: false,
    onSuccess: () => queryClient.setQueryData<PortalNotices>(noticesKey, { reset: null }),
  });
}
