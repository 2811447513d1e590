import { queryOptions, useMutation, type UseMutationResult } from '@tanstack/react-query';
import type { MessageResult, RegisterInput, RegistrationRole } from '../../../../contracts/auth';
import { apiJson } from '../../../lib/api-client';

/** The registration roles come from the server (DESIGN.md §9). */
export const registrationRolesQueryOptions = queryOptions<RegistrationRole[]>({ queryKey: ['/api/roles'] });

export function useRegister(): UseMutationResult<MessageResult, Error, RegisterInput> {
  return useMutation({
    mutationFn: (input: RegisterInput) => apiJson<MessageResult>('POST', '/api/auth/register', input),
    retry: false,
  });
}
