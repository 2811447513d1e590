import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import type { LoginInput } from '../../../../contracts/auth-login';
import { apiJson } from '../../../lib/api-client';
import { passkeyAssertion } from '../../../lib/passkeys';

export function useLogin(): UseMutationResult<unknown, Error, LoginInput> {
  return useMutation({
    mutationFn: (input: LoginInput) => apiJson<unknown>('POST', '/api/auth/login', input),
    retry: false,
  });
}

/** Signed out: a passkey of this device names the account and proves both factors (decision 026). */
export function usePasskeyLogin(): UseMutationResult<unknown, Error, void> {
  return useMutation({
    mutationFn: async () => apiJson<unknown>('POST', '/api/auth/passkey-login', { response: await passkeyAssertion('sign_in') }),
    retry: false,
  });
}
