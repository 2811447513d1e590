import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { ActiveUser, NameChange, PendingUser, UserStats } from '../../../../contracts/users';
import { apiRequest } from '../../../lib/api-client';
import { underUrl, urlKey } from '../../../lib/query-keys';

/** Manage Users' query keys: the URL of each GET (lib/query-keys.ts). */
export const userKeys = {
  pending: urlKey('/api/admin/pending-users'),
  active: urlKey('/api/admin/active-users'),
  stats: urlKey('/api/admin/user-stats'),
  /** The three answers a decision on a registration changes. */
  afterDecision: underUrl('/api/admin/pending-users', '/api/admin/active-users', '/api/admin/user-stats'),
};

export const pendingUsersQueryOptions = queryOptions<PendingUser[]>({ queryKey: userKeys.pending });
export const activeUsersQueryOptions = queryOptions<ActiveUser[]>({ queryKey: userKeys.active });
export const userStatsQueryOptions = queryOptions<UserStats>({ queryKey: userKeys.stats });

function useUserDecision(method: 'POST' | 'DELETE', path: (id: string) => string): UseMutationResult<void, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest(method, path(encodeURIComponent(id)));
    },
    retry: false,
    // Awaited: the decision counts as done once the lists show it (the caller then moves focus off the gone row).
    onSettled: () => queryClient.invalidateQueries({ predicate: userKeys.afterDecision }),
  });
}

export const useApproveUser = (): UseMutationResult<void, Error, string> =>
  useUserDecision('POST', (id) => `/api/admin/users/${id}/approve`);
export const useRejectUser = (): UseMutationResult<void, Error, string> =>
  useUserDecision('DELETE', (id) => `/api/admin/users/${id}/reject`);

/** Name changes waiting for approval (issue 21 item 10). */
export const nameChangeKeys = { list: urlKey('/api/admin/name-changes') };
export const nameChangesQueryOptions = queryOptions<NameChange[]>({ queryKey: nameChangeKeys.list });

export function useDecideNameChange(): UseMutationResult<void, Error, { id: number; decision: 'approve' | 'reject' }> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, decision }) => {
      await apiRequest('POST', `/api/admin/name-changes/${id}/${decision}`);
    },
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ predicate: underUrl('/api/admin/name-changes', '/api/admin/active-users') }),
  });
}
