// Adding to and deleting from one list of the record (SPEC §7); both refresh that list when done.
import { useMutation, useQueryClient, type QueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { RecordKind, RecordRows } from '../../../../contracts/record-rows';
import { apiJson, apiRequest } from '../../../lib/api-client';
import { recordListQueryOptions, recordSummaryQueryOptions } from './record-queries';

/**
 * Refetches one list and copies it into the record summary too, so a list that is later rebuilt from the summary
 * (after its own cache was dropped) starts from current data.
 */
async function refreshList(queryClient: QueryClient, kind: RecordKind, patientId: number): Promise<void> {
  const listKey = recordListQueryOptions(kind, patientId).queryKey;
  await queryClient.invalidateQueries({ queryKey: listKey });
  const list = queryClient.getQueryData(listKey);
  if (list) queryClient.setQueryData(recordSummaryQueryOptions(patientId).queryKey, (old) => (old ? { ...old, [kind]: list } : old));
}

/** POST /api/patients/{id}/<kind>; resolves with the stored row once the list has been refreshed. */
export function useAddRecordItem<K extends RecordKind>(kind: K, patientId: number): UseMutationResult<RecordRows[K], Error, unknown> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: unknown) => apiJson<RecordRows[K]>('POST', `/api/patients/${patientId}/${kind}`, input),
    retry: false, // an add is not idempotent: never send it twice
    onSuccess: () => refreshList(queryClient, kind, patientId),
  });
}

/** DELETE /api/<kind>/{id}; the list is refreshed whatever the answer (the item may already be gone). */
export function useDeleteRecordItem(kind: RecordKind, patientId: number): UseMutationResult<void, Error, number> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `/api/${kind}/${id}`);
    },
    retry: false,
    onSettled: () => refreshList(queryClient, kind, patientId),
  });
}
