// Reading the record (SPEC §7): one summary request when the record opens, then one query per list. The lists start
// from the summary's data (no second request), and an add or delete refreshes only its own list.
import { queryOptions, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { RecordKind, RecordRows, RecordSummary } from '../../../../contracts/record-rows';
import { retryUnlessRefused } from '../../../lib/api-error';

export const recordSummaryQueryOptions = (patientId: number) =>
  queryOptions<RecordSummary>({ queryKey: [`/api/patients/${patientId}/record-summary`], retry: retryUnlessRefused });

export const recordListQueryOptions = <K extends RecordKind>(kind: K, patientId: number) =>
  queryOptions<RecordRows[K][]>({ queryKey: [`/api/patients/${patientId}/${kind}`], retry: retryUnlessRefused });

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
