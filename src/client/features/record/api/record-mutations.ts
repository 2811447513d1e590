// Adding, editing and marking entries entered in error in one list of the record (SPEC §7; issue 23). The answer is
// written into the cache (the list and the record summary) instead of fetching the list again: a change is one request
// and one audit row (issue 15 item 5).
// - An add carries an Idempotency-Key the form made for that one submission: a network failure is retried with the
//   same key, and the server answers the retry with the row the first attempt stored (never a second row).
// - An edit names the version it was made from (If-Match); a stale one is 409 VERSION_CONFLICT with the row as stored
//   now, which goes into the cache so the list shows what is true.
// - Delete marks the entry entered in error with the user's reason: it leaves the lists, and stays in its history.
import { useMutation, useQueryClient, type QueryClient, type UseMutationResult } from '@tanstack/react-query';
import { withRow } from '../../../../contracts/record-order';
import type { RecordKind, RecordRows } from '../../../../contracts/kinds';
import type { RecordSummary } from '../../../../contracts/record-api';
import { etagOf, IDEMPOTENCY_KEY, IF_MATCH, type VersionConflict } from '../../../../contracts/record-versions';
import type { RecordWarning } from '../../../../contracts/record-warnings';
import { apiJson, apiRequest } from '../../../lib/api-client';
import { asApiError } from '../../../lib/api-error';
import { shouldRetryMutation } from '../../../lib/query-client';
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
  // A medicine or an allergy changes what the medicine checks find (the medicines' details).
  if (kind === 'medications' || kind === 'allergies')
    void queryClient.invalidateQueries({ queryKey: recordKeys.medicineChecks(patientId) });
}

/**
 * `?confirm=A,B` names every warning the user confirmed, `&overrideReason=` says why a contraindicated medicine-check
 * warning is overridden (contracts/record-warnings.ts, decision 043).
 */
function confirmQuery(confirm: readonly string[] = [], overrideReason?: string): string {
  const query = [
    ...(confirm.length ? [`confirm=${confirm.map(encodeURIComponent).join(',')}`] : []),
    ...(overrideReason ? [`overrideReason=${encodeURIComponent(overrideReason)}`] : []),
  ];
  return query.length ? `?${query.join('&')}` : '';
}

/** An add: the body, the warnings (codes) the user confirmed after a 409 CONFIRMATION_REQUIRED, and the submission's key. */
export interface AddRecordRequest {
  body: Record<string, unknown>;
  confirm?: readonly string[];
  /** Why a contraindicated medicine-check warning is overridden (decision 043). */
  overrideReason?: string;
  /** A UUID made once per submission (crypto.randomUUID()); every retry of that submission sends the same one. */
  idempotencyKey: string;
}

/** The add's URL. */
export const addRecordUrl = (kind: RecordKind, patientId: number, confirm: readonly string[] = [], overrideReason?: string): string =>
  `/api/patients/${patientId}/${kind}${confirmQuery(confirm, overrideReason)}`;

/** POST /api/patients/{id}/<kind>; resolves with the stored row, already in its place in the list. */
export function useAddRecordItem<K extends RecordKind>(
  kind: K,
  patientId: number,
): UseMutationResult<RecordRows[K], Error, AddRecordRequest> {
  const queryClient = useQueryClient();
  return useMutation<RecordRows[K], Error, AddRecordRequest>({
    mutationFn: ({ body, confirm, overrideReason, idempotencyKey }: AddRecordRequest) =>
      apiJson<RecordRows[K]>('POST', addRecordUrl(kind, patientId, confirm, overrideReason), body, { [IDEMPOTENCY_KEY]: idempotencyKey }),
    // Safe to send again: a retry carries the same variables, so the same key, and cannot store a second row.
    retry: shouldRetryMutation,
    onSuccess: (row) => updateList(queryClient, kind, patientId, (list) => withRow(kind, list, row)),
  });
}

/** An edit of one entry: the version it was made from, the whole form's body, and any confirmed warnings. */
export interface EditRecordRequest {
  id: number;
  version: number;
  body: Record<string, unknown>;
  confirm?: readonly string[];
  overrideReason?: string;
}

/** PATCH /api/<kind>/{id} with If-Match; resolves with the edited row, already in the list. */
export function useEditRecordItem<K extends RecordKind>(
  kind: K,
  patientId: number,
): UseMutationResult<RecordRows[K], Error, EditRecordRequest> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version, body, confirm, overrideReason }: EditRecordRequest) =>
      apiJson<RecordRows[K]>('PATCH', `/api/${kind}/${id}${confirmQuery(confirm, overrideReason)}`, body, { [IF_MATCH]: etagOf(version) }),
    // Not sent twice: a retry after a lost answer would meet its own first attempt as a conflict.
    retry: false,
    onSuccess: (row) => {
      updateList(queryClient, kind, patientId, (list) => withRow(kind, list, row));
      void queryClient.invalidateQueries({ queryKey: recordKeys.history(kind, row.id) });
    },
    onError: (error) => {
      // The list shows the entry as stored now (what the conflict names).
      const conflict = conflictOf<RecordRows[K]>(error);
      if (conflict) updateList(queryClient, kind, patientId, (list) => withRow(kind, list, conflict.current));
    },
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

/** The details of a 409 VERSION_CONFLICT (the row as stored now, the fields changed since), or null. */
export function conflictOf<Row>(error: unknown): VersionConflict<Row> | null {
  const apiError = asApiError(error);
  if (apiError?.code !== 'VERSION_CONFLICT') return null;
  const { current, changed } = apiError.details;
  if (typeof current !== 'object' || current === null || typeof (current as { version?: unknown }).version !== 'number') return null;
  return { current: current as Row, changed: Array.isArray(changed) ? changed.filter((c): c is string => typeof c === 'string') : [] };
}

/** Marking one entry entered in error: which, and why. */
export interface EnteredInErrorRequest {
  id: number;
  reason: string;
}

/**
 * DELETE /api/<kind>/{id} with `{ reason }`: the entry is marked entered in error and leaves the list; on any failure
 * the list is fetched again (the entry may already be gone).
 */
export function useEnterInError(kind: RecordKind, patientId: number): UseMutationResult<void, Error, EnteredInErrorRequest> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, reason }: EnteredInErrorRequest) => {
      await apiRequest('DELETE', `/api/${kind}/${id}`, { reason });
    },
    retry: false,
    onSuccess: (_none, { id }) => {
      updateList(queryClient, kind, patientId, (list) => list.filter((r) => r.id !== id));
      void queryClient.invalidateQueries({ queryKey: recordKeys.history(kind, id) });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: recordKeys.list(kind, patientId) }),
  });
}
