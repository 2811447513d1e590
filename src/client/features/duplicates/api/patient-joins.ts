// The joins of patient records (issue 24 items 4-5, docs/decisions/048-patient-joins.md): the list (pending ones and
// recent ones), a second reviewer's approval, and undo with its reason. Each refreshes the joins and the queue.
import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { JoinStatus, JoinUndoInput, PatientJoin } from '../../../../contracts/patient-joins';
import { apiJson } from '../../../lib/api-client';
import { toQueryString, underUrl, urlKey } from '../../../lib/query-keys';

export const JOINS_PREFIX = '/api/patient-joins';

export const joinKeys = {
  list: (status?: JoinStatus) => urlKey(`${JOINS_PREFIX}${toQueryString({ status })}`),
  all: underUrl(JOINS_PREFIX, '/api/duplicates'),
};

/** Joins of one status, or all of them (newest first). */
export const joinListQueryOptions = (status?: JoinStatus) => queryOptions<PatientJoin[]>({ queryKey: joinKeys.list(status), staleTime: 0 });

function useJoinAction<I>(path: (id: number) => string): UseMutationResult<PatientJoin, Error, { id: number; input?: I }> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input?: I }) => apiJson<PatientJoin>('POST', path(id), input),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ predicate: joinKeys.all }),
  });
}

/** A second reviewer approves a pending join (POST /api/patient-joins/{id}/approve): the records are joined then. */
export const useApproveJoin = () => useJoinAction<never>((id) => `${JOINS_PREFIX}/${id}/approve`);

/** Undoes a join (POST /api/patient-joins/{id}/undo) with the reason it was wrong. */
export const useUndoJoin = () => useJoinAction<JoinUndoInput>((id) => `${JOINS_PREFIX}/${id}/undo`);
