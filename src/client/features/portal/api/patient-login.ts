import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import type { PatientLoginInput } from '../../../../contracts/portal-login';
import type { PatientLoginResult } from '../../../../contracts/portal';
import { apiJson } from '../../../lib/api-client';
import { passkeyAssertion } from '../../../lib/passkeys';

/** POST /api/auth/patient-login (SPEC §7): a patient session; the answer names the patient's first name. */
export function usePatientLogin(): UseMutationResult<PatientLoginResult, Error, PatientLoginInput> {
  return useMutation({
    mutationFn: (input: PatientLoginInput) => apiJson<PatientLoginResult>('POST', '/api/auth/patient-login', input),
    retry: false,
  });
}

/** POST /api/auth/patient-passkey-login (decision 026): the device's passkey names the patient; nothing typed. */
export function usePatientPasskeyLogin(): UseMutationResult<PatientLoginResult, Error, void> {
  return useMutation({
    mutationFn: async () =>
      apiJson<PatientLoginResult>('POST', '/api/auth/patient-passkey-login', { response: await passkeyAssertion('sign_in') }),
    retry: false,
  });
}
