import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { SetupAdminInput, SetupAdminResult, SetupStatus } from '../../../../contracts/setup';
import { apiJson } from '../../../lib/api-client';

export const setupStatusQueryOptions = queryOptions<SetupStatus>({ queryKey: ['/api/setup/status'], staleTime: Infinity });

export function useSetupAdmin(): UseMutationResult<SetupAdminResult, Error, SetupAdminInput> {
  return useMutation({
    mutationFn: (input: SetupAdminInput) => apiJson<SetupAdminResult>('POST', '/api/setup/admin', input),
    retry: false, // never create the administrator twice
  });
}

/** Lifts the setup gate; called once the progress overlay has finished (not when the server answers). */
export function useMarkSetupDone(): () => void {
  const queryClient = useQueryClient();
  return () => queryClient.setQueryData(setupStatusQueryOptions.queryKey, { needsSetup: false });
}
