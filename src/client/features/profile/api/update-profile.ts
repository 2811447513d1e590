import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { CurrentUser } from '../../../../contracts/auth';
import type { ProfileUpdateInput } from '../../../../contracts/users';
import { apiJson } from '../../../lib/api-client';
import { currentUserKey } from '../../../lib/query-keys';

export function useUpdateProfile(userId: string): UseMutationResult<CurrentUser, Error, ProfileUpdateInput> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileUpdateInput) => apiJson<CurrentUser>('PATCH', `/api/users/${encodeURIComponent(userId)}`, input),
    onSuccess: (user) => queryClient.setQueryData(currentUserKey, user),
  });
}
