import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import type { PatientLoginInput } from '../../../../contracts/portal-login';
import type { PatientLoginResult } from '../../../../contracts/portal';
import { apiJson } from '../../../lib/api-client';

/** POST /api/auth/patient-login (SPEC §7): a patient session; the answer names the patient's first name. */
export function usePatientLogin(): UseMutationResult<PatientLoginResult, Error, PatientLoginInput> {
  return useMutation({
    mutationFn: (input: PatientLoginInput) => apiJson<PatientLoginResult>('POST', '/api/auth/patient-login', input),
    retry: false,
  });
}
