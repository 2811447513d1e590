// The review tasks an offline sync opened (issue 27 item 5, decision 061; patients.merge): an entry made offline on a
// record that changed meanwhile, or a patient registered offline who looks like one already known
// (GET /api/offline-reviews, POST /api/offline-reviews/{id}/close).
import { infiniteQueryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { OfflineReview } from '../../../../contracts/offline';
import { apiJson } from '../../../lib/api-client';
import { toQueryString, underUrl, urlKey } from '../../../lib/query-keys';

export const OFFLINE_REVIEWS_PREFIX = '/api/offline-reviews';

export const offlineReviewKeys = {
  list: () => urlKey(OFFLINE_REVIEWS_PREFIX),
  all: underUrl(OFFLINE_REVIEWS_PREFIX),
};

export interface OfflineReviewsPage {
  reviews: OfflineReview[];
  nextCursor: string | null;
}

export const offlineReviewsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: offlineReviewKeys.list(),
    queryFn: ({ pageParam }) => apiJson<OfflineReviewsPage>('GET', `${OFFLINE_REVIEWS_PREFIX}${toQueryString({ cursor: pageParam })}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 0,
  });

export function useCloseOfflineReview(): UseMutationResult<unknown, Error, { id: number; note: string }> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, note }) => apiJson<unknown>('POST', `${OFFLINE_REVIEWS_PREFIX}/${id}/close`, { note }),
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ predicate: offlineReviewKeys.all }),
  });
}
