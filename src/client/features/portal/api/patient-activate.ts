import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import type { PatientActivateInput } from '../../../../contracts/portal-activate';
import type { PatientLoginResult } from '../../../../contracts/portal';
import { apiJson } from '../../../lib/api-client';

/** POST /api/auth/patient-activate (decision 016): the clinic's code and a new PIN; opens the portal like a sign-in. */
export function usePatientActivate(): UseMutationResult<PatientLoginResult, Error, PatientActivateInput> {
  return useMutation({
    mutationFn: (input: PatientActivateInput) => apiJson<PatientLoginResult>('POST', '/api/auth/patient-activate', input),
    retry: false,
  });
}
