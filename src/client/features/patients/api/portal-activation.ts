import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import type { PortalActivation } from '../../../../contracts/portal';
import { apiJson } from '../../../lib/api-client';

/**
 * POST /api/patients/{id}/portal-activation (decision 016): a clinic desk (patients.create) issues a new portal
 * activation code, for a first activation or a forgotten PIN. The code is answered once; it is audited.
 */
export function useIssuePortalActivation(): UseMutationResult<PortalActivation, Error, number> {
  return useMutation({
    mutationFn: (patientId: number) => apiJson<PortalActivation>('POST', `/api/patients/${patientId}/portal-activation`),
    retry: false,
  });
}
