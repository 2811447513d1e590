import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { PortalActivation, PortalStatus } from '../../../../contracts/portal';
import { apiJson } from '../../../lib/api-client';
import { retryUnlessRefused } from '../../../lib/api-error';
import { urlKey } from '../../../lib/query-keys';

const statusUrl = (patientId: number): string => `/api/patients/${patientId}/portal-status`;

/**
 * POST /api/patients/{id}/portal-activation (decision 016): a clinic desk (patients.create) issues a new portal
 * activation code, for a first activation or a forgotten PIN. The code is answered once; it is audited.
 */
export function useIssuePortalActivation(): UseMutationResult<PortalActivation, Error, number> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patientId: number) => apiJson<PortalActivation>('POST', `/api/patients/${patientId}/portal-activation`),
    retry: false,
    onSuccess: (_data, patientId) => queryClient.invalidateQueries({ queryKey: urlKey(statusUrl(patientId)) }),
  });
}

/** GET /api/patients/{id}/portal-status (decision 031): active or not, and the live code's state (never the code). */
export const portalStatusQueryOptions = (patientId: number) =>
  queryOptions<PortalStatus>({ queryKey: urlKey(statusUrl(patientId)), retry: retryUnlessRefused, staleTime: 0 });

/** POST /api/patients/{id}/portal-reset/confirm: the second staff member of the two-person rule (decision 031). */
export function useConfirmPortalReset(): UseMutationResult<PortalStatus, Error, number> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patientId: number) => apiJson<PortalStatus>('POST', `/api/patients/${patientId}/portal-reset/confirm`),
    retry: false,
    onSuccess: (status, patientId) => queryClient.setQueryData(urlKey(statusUrl(patientId)), status),
  });
}
