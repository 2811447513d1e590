// Adding to and deleting from one list of the record (SPEC §7). The answer is written into the cache (the list and
// the record summary) instead of fetching the list again: an add is one request and one audit row (issue 15 item 5).
import { useMutation, useQueryClient, type QueryClient, type UseMutationResult } from '@tanstack/react-query';
import { withRow } from '../../../../contracts/record-order';
import type { RecordKind, RecordRows } from '../../../../contracts/kinds';
import type { RecordSummary } from '../../../../contracts/record-api';
import { apiJson, apiRequest } from '../../../lib/api-client';
import { recordKeys } from './record-queries';

/** Writes `change` into the list's cache and into the record summary's copy of that list. */
function updateList<K extends RecordKind>(
  queryClient: QueryClient,
  kind: K,
  patientId: number,
  change: (list: RecordRows[K][]) => RecordRows[K][],
): void {
  queryClient.setQueryData<RecordRows[K][]>(recordKeys.list(kind, patientId), (old) => (old ? change(old) : old));
  queryClient.setQueryData<RecordSummary>(recordKeys.summary(patientId), (old) =>
    old ? { ...old, [kind]: change(old[kind] as RecordRows[K][]) } : old,
  );
}

/** POST /api/patients/{id}/<kind>; resolves with the stored row, already in its place in the list. */
export function useAddRecordItem<K extends RecordKind>(kind: K, patientId: number): UseMutationResult<RecordRows[K], Error, unknown> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: unknown) => apiJson<RecordRows[K]>('POST', `/api/patients/${patientId}/${kind}`, input),
    retry: false, // an add is not idempotent: never send it twice
    onSuccess: (row) => updateList(queryClient, kind, patientId, (list) => withRow(kind, list, row)),
  });
}

/** DELETE /api/<kind>/{id}; gone from the list on success; on any failure the list is fetched again (the item may already be gone). */
export function useDeleteRecordItem(kind: RecordKind, patientId: number): UseMutationResult<void, Error, number> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `/api/${kind}/${id}`);
    },
    retry: false,
    onSuccess: (_none, id) => updateList(queryClient, kind, patientId, (list) => list.filter((r) => r.id !== id)),
    onError: () => queryClient.invalidateQueries({ queryKey: recordKeys.list(kind, patientId) }),
  });
}
