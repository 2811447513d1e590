// Reading the record (SPEC §7): one summary request when the record opens, then one query per list. The lists start
// from the summary's data (no second request); an add, edit or entered-in-error writes its answer into the cache
// (record-mutations.ts). An entry's history is read when it is opened.
import { queryOptions, useQueries, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { RECORD_KINDS, type RecordKind, type RecordLists, type RecordRows } from '../../../../contracts/kinds';
import type { RecordSummary } from '../../../../contracts/record-api';
import type { HistoryEntry } from '../../../../contracts/record-versions';
import type { RecordMedicineChecks } from '../../../../contracts/medicine-checks';
import { retryUnlessRefused } from '../../../lib/api-error';
import { urlKey } from '../../../lib/query-keys';

/** The record's query keys, in one place (the app's default query function fetches the key's URL). */
export const recordKeys = {
  summary: (patientId: number) => urlKey(`/api/patients/${patientId}/record-summary`),
  list: (kind: RecordKind, patientId: number) => urlKey(`/api/patients/${patientId}/${kind}`),
  history: (kind: RecordKind, id: number) => urlKey(`/api/${kind}/${id}/history`),
  /** Every finding of the medicine checks on the record, minor ones too (decision 045). */
  medicineChecks: (patientId: number) => urlKey(`/api/patients/${patientId}/medicine-checks`),
};

export const recordSummaryQueryOptions = (patientId: number) =>
  queryOptions<RecordSummary>({ queryKey: recordKeys.summary(patientId), retry: retryUnlessRefused });

export const recordListQueryOptions = <K extends RecordKind>(kind: K, patientId: number) =>
  queryOptions<RecordRows[K][]>({ queryKey: recordKeys.list(kind, patientId), retry: retryUnlessRefused });

/** Every version of one entry, oldest first (GET /api/<kind>/{id}/history); read when its history is opened. */
export const recordHistoryQueryOptions = <K extends RecordKind>(kind: K, id: number) =>
  queryOptions<HistoryEntry<K>[]>({ queryKey: recordKeys.history(kind, id), retry: retryUnlessRefused, staleTime: 0 });

/** The medicines' details: each active coded medicine's findings (GET /api/patients/{id}/medicine-checks). */
export const recordMedicineChecksQueryOptions = (patientId: number) =>
  queryOptions<RecordMedicineChecks>({ queryKey: recordKeys.medicineChecks(patientId), retry: retryUnlessRefused });

/** One list of the record, seeded from the summary when it is already loaded. */
export function useRecordList<K extends RecordKind>(kind: K, patientId: number): UseQueryResult<RecordRows[K][]> {
  const queryClient = useQueryClient();
  const summaryKey = recordSummaryQueryOptions(patientId).queryKey;
  return useQuery({
    ...recordListQueryOptions(kind, patientId),
    initialData: () => queryClient.getQueryData(summaryKey)?.[kind] as RecordRows[K][] | undefined,
    initialDataUpdatedAt: () => queryClient.getQueryState(summaryKey)?.dataUpdatedAt,
  });
}

/** Every list of the record (each empty until loaded), seeded from the summary like useRecordList. */
export function useRecordLists(patientId: number): RecordLists {
  const queryClient = useQueryClient();
  const summaryKey = recordSummaryQueryOptions(patientId).queryKey;
  const results = useQueries({
    queries: RECORD_KINDS.map((kind) => ({
      ...recordListQueryOptions(kind, patientId),
      initialData: () => queryClient.getQueryData(summaryKey)?.[kind] as RecordRows[RecordKind][] | undefined,
      initialDataUpdatedAt: () => queryClient.getQueryState(summaryKey)?.dataUpdatedAt,
    })),
  });
  return Object.fromEntries(RECORD_KINDS.map((kind, i) => [kind, results[i]?.data ?? []])) as RecordLists;
}
