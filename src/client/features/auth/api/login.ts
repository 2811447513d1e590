import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import type { LoginInput } from '../../../../contracts/auth-login';
import { apiJson } from '../../../lib/api-client';

export function useLogin(): UseMutationResult<unknown, Error, LoginInput> {
  return useMutation({
    mutationFn: (input: LoginInput) => apiJson<unknown>('POST', '/api/auth/login', input),
    retry: false,
  });
}
