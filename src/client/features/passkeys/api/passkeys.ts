// The signed-in person's passkeys (decision 026): staff on My Profile, patients in the portal; one API for both.
import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { PasskeyRegistered, PasskeySummary } from '../../../../contracts/passkeys';
import { apiJson } from '../../../lib/api-client';
import { retryUnlessRefused } from '../../../lib/api-error';
import { passkeyRegistration } from '../../../lib/passkeys';
import { underUrl, urlKey } from '../../../lib/query-keys';

export const passkeyKeys = {
  list: urlKey('/api/auth/passkeys'),
  /** A change of passkeys also changes the second-factor status (GET /api/auth/mfa counts them). */
  afterChange: underUrl('/api/auth/passkeys', '/api/auth/mfa'),
};

export const passkeyListQueryOptions = queryOptions<PasskeySummary[]>({ queryKey: passkeyKeys.list, retry: retryUnlessRefused });

export function useAddPasskey(): UseMutationResult<PasskeyRegistered, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) =>
      apiJson<PasskeyRegistered>('POST', '/api/auth/passkeys', { name, response: await passkeyRegistration() }),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ predicate: passkeyKeys.afterChange }),
  });
}

export function useRemovePasskey(): UseMutationResult<unknown, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<unknown>('DELETE', `/api/auth/passkeys/${encodeURIComponent(id)}`),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ predicate: passkeyKeys.afterChange }),
  });
}
