import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { ActiveUser, PendingUser, UserStats } from '../../../../contracts/users';
import { apiRequest } from '../../../lib/api-client';

export const pendingUsersQueryOptions = queryOptions<PendingUser[]>({ queryKey: ['/api/admin/pending-users'] });
export const activeUsersQueryOptions = queryOptions<ActiveUser[]>({ queryKey: ['/api/admin/active-users'] });
export const userStatsQueryOptions = queryOptions<UserStats>({ queryKey: ['/api/admin/user-stats'] });

function useUserDecision(method: 'POST' | 'DELETE', path: (id: string) => string): UseMutationResult<void, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest(method, path(encodeURIComponent(id)));
    },
    retry: false,
    // Awaited: the decision counts as done once the lists show it (the caller then moves focus off the gone row).
    onSettled: () =>
      Promise.all(
        [pendingUsersQueryOptions, activeUsersQueryOptions, userStatsQueryOptions].map((q) =>
          queryClient.invalidateQueries({ queryKey: q.queryKey }),
        ),
      ),
  });
}

export const useApproveUser = (): UseMutationResult<void, Error, string> =>
  useUserDecision('POST', (id) => `/api/admin/users/${id}/approve`);
export const useRejectUser = (): UseMutationResult<void, Error, string> =>
  useUserDecision('DELETE', (id) => `/api/admin/users/${id}/reject`);
