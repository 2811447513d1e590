// Adding to and deleting from one list of the record (SPEC §7). The answer is written into the cache (the list and
// the record summary) instead of fetching the list again: an add is one request and one audit row (issue 15 item 5).
import { useMutation, useQueryClient, type QueryClient, type UseMutationResult } from '@tanstack/react-query';
import { withRow } from '../../../../contracts/record-order';
import type { RecordKind, RecordRows } from '../../../../contracts/kinds';
import type { RecordSummary } from '../../../../contracts/record-api';
import type { RecordWarning } from '../../../../contracts/record-warnings';
import { apiJson, apiRequest } from '../../../lib/api-client';
import { asApiError } from '../../../lib/api-error';
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

/** An add: the body, and the warnings (codes) the user confirmed after a 409 CONFIRMATION_REQUIRED named them. */
export interface AddRecordRequest {
  body: Record<string, unknown>;
  confirm?: readonly string[];
  /** Why a contraindicated medicine-check warning is overridden (decision 043). */
  overrideReason?: string;
}

/**
 * The add's URL: `?confirm=A,B` names every confirmed warning, `&overrideReason=` says why a contraindicated one is
 * overridden (contracts/record-warnings.ts).
 */
export const addRecordUrl = (kind: RecordKind, patientId: number, confirm: readonly string[] = [], overrideReason?: string): string => {
  const query = [
    ...(confirm.length ? [`confirm=${confirm.map(encodeURIComponent).join(',')}`] : []),
    ...(overrideReason ? [`overrideReason=${encodeURIComponent(overrideReason)}`] : []),
  ];
  return `/api/patients/${patientId}/${kind}${query.length ? `?${query.join('&')}` : ''}`;
};

/** POST /api/patients/{id}/<kind>; resolves with the stored row, already in its place in the list. */
export function useAddRecordItem<K extends RecordKind>(
  kind: K,
  patientId: number,
): UseMutationResult<RecordRows[K], Error, AddRecordRequest> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, confirm, overrideReason }: AddRecordRequest) =>
      apiJson<RecordRows[K]>('POST', addRecordUrl(kind, patientId, confirm, overrideReason), body),
    retry: false, // an add is not idempotent: never send it twice
    onSuccess: (row) => updateList(queryClient, kind, patientId, (list) => withRow(kind, list, row)),
  });
}

/** The warnings of a 409 CONFIRMATION_REQUIRED (the body's `warnings`), or null for any other outcome. */
export function warningsOf(error: unknown): RecordWarning[] | null {
  const apiError = asApiError(error);
  const warnings = apiError?.details.warnings;
  if (apiError?.code !== 'CONFIRMATION_REQUIRED' || !Array.isArray(warnings)) return null;
  const valid = warnings.filter(
    (w): w is RecordWarning => typeof w === 'object' && w !== null && typeof (w as RecordWarning).code === 'string',
  );
  return valid.length > 0 ? valid : null;
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
