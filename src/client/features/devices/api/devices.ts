// The devices with offline mode (issue 27 item 2, decision 061) for administrators (users.approve): the list, newest
// first and paged (GET /api/devices), and revoking one (POST /api/devices/{id}/revoke): its next contact wipes it.
import { infiniteQueryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { Device, DevicesPage } from '../../../../contracts/offline';
import { apiJson } from '../../../lib/api-client';
import { toQueryString, underUrl, urlKey } from '../../../lib/query-keys';

export const DEVICES_PREFIX = '/api/devices';

export const deviceKeys = {
  list: () => urlKey(DEVICES_PREFIX),
  all: underUrl(DEVICES_PREFIX),
};

export const devicesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: deviceKeys.list(),
    queryFn: ({ pageParam }) => apiJson<DevicesPage>('GET', `${DEVICES_PREFIX}${toQueryString({ cursor: pageParam })}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 0,
  });

export function useRevokeDevice(): UseMutationResult<Device, Error, { id: string; reason: string }> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }) => apiJson<Device>('POST', `${DEVICES_PREFIX}/${encodeURIComponent(id)}/revoke`, { reason }),
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ predicate: deviceKeys.all }),
  });
}
