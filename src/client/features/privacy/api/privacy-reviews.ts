// Privacy review requests (docs/decisions/018-privacy-review.md): the queue, one access, the reviewer's counts and
// recording a verdict (which refreshes all three).
import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type {
  BreakGlassDetail,
  RecordVerdictInput,
  ReviewQueuePage,
  ReviewSummary,
  ReviewVerdictRecord,
  VolumeAlertPage,
} from '../../../../contracts/privacy-review';
import type { MedicineOverridePage } from '../../../../contracts/medicine-check-report';
import { apiJson } from '../../../lib/api-client';
import { underUrl, urlKey } from '../../../lib/query-keys';

export interface QueueFilters {
  status: string;
  facility: string;
  userId: string;
  page: number;
}

const queryString = (f: QueueFilters): string => {
  const search = new URLSearchParams({ status: f.status, page: String(f.page), pageSize: '20' });
  if (f.facility) search.set('facility', f.facility);
  if (f.userId.trim()) search.set('userId', f.userId.trim());
  return search.toString();
};

const PREFIX = '/api/privacy-reviews';

/** The privacy review's query keys: the URL of each GET (lib/query-keys.ts). */
export const privacyKeys = {
  queue: (f: QueueFilters) => urlKey(`${PREFIX}?${queryString(f)}`),
  detail: (id: number) => urlKey(`${PREFIX}/${id}`),
  alerts: urlKey(`${PREFIX}/alerts?page=1&pageSize=10`),
  summary: urlKey(`${PREFIX}/summary`),
  overrides: (page: number) => urlKey(`${PREFIX}/medicine-overrides?page=${page}&pageSize=10`),
  /** Everything the privacy review cached: a verdict changes the queue, the detail, the counts. */
  all: underUrl(PREFIX),
};

export const reviewQueueQueryOptions = (f: QueueFilters) => queryOptions<ReviewQueuePage>({ queryKey: privacyKeys.queue(f), staleTime: 0 });

export const reviewDetailQueryOptions = (id: number) => queryOptions<BreakGlassDetail>({ queryKey: privacyKeys.detail(id), staleTime: 0 });

/** The newest volume alerts (bulk search, many records opened): decision 011. */
export const volumeAlertsQueryOptions = queryOptions<VolumeAlertPage>({
  queryKey: privacyKeys.alerts,
  staleTime: 30_000,
});

/** The medicine-check overrides, newest first (decision 045). */
export const medicineOverridesQueryOptions = (page: number) =>
  queryOptions<MedicineOverridePage>({ queryKey: privacyKeys.overrides(page), staleTime: 30_000 });

export const reviewSummaryQueryOptions = queryOptions<ReviewSummary>({ queryKey: privacyKeys.summary, staleTime: 30_000 });

export function useRecordVerdict(id: number): UseMutationResult<ReviewVerdictRecord, Error, RecordVerdictInput> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RecordVerdictInput) => apiJson<ReviewVerdictRecord>('POST', `${PREFIX}/${id}/verdict`, input),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ predicate: privacyKeys.all }),
  });
}
