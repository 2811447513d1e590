import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import type { PatientReauthResult } from '../../../../contracts/portal';
import { apiJson } from '../../../lib/api-client';

/** POST /api/patient-portal/reauth (issue 21 item 2): the PIN again, before adding a passkey. */
export function usePatientReauth(): UseMutationResult<PatientReauthResult, Error, string> {
  return useMutation({
    mutationFn: (pin: string) => apiJson<PatientReauthResult>('POST', '/api/patient-portal/reauth', { pin }),
    retry: false,
  });
}
