// Administration: FHIR system clients (decision 020). The list is cached under its URL; a create puts the new client
// at the top of the cached list and a revoke or a new token replaces its row with the server's answer, so none refetches.
import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type {
  ApiClient,
  ApiClientInput,
  ApiClientSmartInput,
  ApiClientTokenInput,
  CreatedApiClient,
} from '../../../../contracts/api-clients';
import { apiJson } from '../../../lib/api-client';
import { errorCodeOf } from '../../../lib/api-error';
import { underUrl, urlKey } from '../../../lib/query-keys';

/** System clients' query keys (lib/query-keys.ts): the URL of the list. */
export const apiClientKeys = {
  list: urlKey('/api/admin/api-clients'),
  /** Everything this feature cached. */
  all: underUrl('/api/admin/api-clients'),
};

export const apiClientsQueryOptions = queryOptions<ApiClient[]>({ queryKey: apiClientKeys.list });

/** POST /api/admin/api-clients: the answer carries the token, shown once; it is never put in the cache. */
export function useCreateApiClient(): UseMutationResult<CreatedApiClient, Error, ApiClientInput> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ApiClientInput) => apiJson<CreatedApiClient>('POST', '/api/admin/api-clients', input),
    retry: false,
    onSuccess: ({ client }) => queryClient.setQueryData<ApiClient[]>(apiClientKeys.list, (list) => (list ? [client, ...list] : list)),
  });
}

/** POST /api/admin/api-clients/{id}/revoke. */
export function useRevokeApiClient(): UseMutationResult<ApiClient, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<ApiClient>('POST', `/api/admin/api-clients/${encodeURIComponent(id)}/revoke`),
    retry: false,
    onSuccess: (revoked) =>
      queryClient.setQueryData<ApiClient[]>(apiClientKeys.list, (list) => list?.map((c) => (c.id === revoked.id ? revoked : c))),
    // Already revoked or gone elsewhere: the list is stale, read it again.
    onError: () => queryClient.invalidateQueries({ predicate: apiClientKeys.all }),
  });
}

/**
 * POST /api/admin/api-clients/{id}/token (decision 030): a new token, shown once (never cached); the client's row is
 * replaced with the server's answer (its new expiry).
 */
export function useIssueApiClientToken(): UseMutationResult<CreatedApiClient, Error, { id: string } & ApiClientTokenInput> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: { id: string } & ApiClientTokenInput) =>
      apiJson<CreatedApiClient>('POST', `/api/admin/api-clients/${encodeURIComponent(id)}/token`, input),
    retry: false,
    onSuccess: ({ client }) =>
      queryClient.setQueryData<ApiClient[]>(apiClientKeys.list, (list) => list?.map((c) => (c.id === client.id ? client : c))),
    // Revoked or gone elsewhere: the list is stale, read it again.
    onError: () => queryClient.invalidateQueries({ predicate: apiClientKeys.all }),
  });
}

/**
 * PUT /api/admin/api-clients/{id}/smart (decision 050): the client's public keys for SMART Backend Services and its own
 * limits; its row is replaced with the server's answer.
 */
export function useSetApiClientSmart(): UseMutationResult<ApiClient, Error, { id: string } & ApiClientSmartInput> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: { id: string } & ApiClientSmartInput) =>
      apiJson<ApiClient>('PUT', `/api/admin/api-clients/${encodeURIComponent(id)}/smart`, input),
    retry: false,
    onSuccess: (client) =>
      queryClient.setQueryData<ApiClient[]>(apiClientKeys.list, (list) => list?.map((c) => (c.id === client.id ? client : c))),
    // Revoked or gone elsewhere: the list is stale, read it again (refused keys change nothing).
    onError: (error) => {
      if (errorCodeOf(error) !== 'VALIDATION_FAILED') void queryClient.invalidateQueries({ predicate: apiClientKeys.all });
    },
  });
}
