// The duplicate review queue's requests (docs/decisions/046-duplicate-matcher.md): the pairs, the matcher's run,
// starting it, one pair with both whole records, and a decision (which refreshes the queue and the joins).
import type { z } from 'zod';
import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type {
  DuplicateDecisionInput,
  DuplicateDecisionResult,
  DuplicatePage,
  PairDetail,
  PairStatus,
  ScanProgress,
} from '../../../../contracts/duplicates';
import type { sameDecisionInput } from '../../../../contracts/patient-joins';
import { apiJson } from '../../../lib/api-client';
import { underUrl, urlKey } from '../../../lib/query-keys';
import { JOINS_PREFIX } from './patient-joins';

export interface QueueFilters {
  band: string;
  page: number;
}

const PREFIX = '/api/duplicates';
const queryString = (f: QueueFilters): string => {
  const search = new URLSearchParams({ status: 'open', page: String(f.page), pageSize: '10' });
  if (f.band) search.set('band', f.band);
  return search.toString();
};

export const duplicateKeys = {
  queue: (f: QueueFilters) => urlKey(`${PREFIX}?${queryString(f)}`),
  scan: urlKey(`${PREFIX}/scan`),
  pair: (id: number) => urlKey(`${PREFIX}/${id}`),
  all: underUrl(PREFIX),
  /** What a decision changes: the queue, the pair, and the joins. */
  decided: underUrl(PREFIX, JOINS_PREFIX),
};

export const duplicateQueueQueryOptions = (f: QueueFilters) =>
  queryOptions<DuplicatePage>({ queryKey: duplicateKeys.queue(f), staleTime: 0 });

/** One pair with both whole records (GET /api/duplicates/{id}), for the side-by-side review. */
export const pairDetailQueryOptions = (id: number) => queryOptions<PairDetail>({ queryKey: duplicateKeys.pair(id), staleTime: 0 });

/** The run's progress: asked again every 2 seconds while it runs. */
export const scanProgressQueryOptions = queryOptions<ScanProgress>({
  queryKey: duplicateKeys.scan,
  staleTime: 0,
  refetchInterval: (query) => (query.state.data?.status === 'running' ? 2000 : false),
});

export function useStartScan(): UseMutationResult<ScanProgress, Error, void> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<ScanProgress>('POST', `${PREFIX}/scan`),
    retry: false,
    onSuccess: (progress) => queryClient.setQueryData(duplicateKeys.scan, progress),
  });
}

export function useDecide(id: number): UseMutationResult<{ id: number; status: PairStatus }, Error, DuplicateDecisionInput> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DuplicateDecisionInput) => apiJson<{ id: number; status: PairStatus }>('POST', `${PREFIX}/${id}/decision`, input),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ predicate: duplicateKeys.all }),
  });
}

export type SameDecision = z.input<typeof sameDecisionInput>;

/** "Same person": joins the pair's records (POST /api/duplicates/{id}/decision with decision "same"). */
export function useJoinPair(id: number): UseMutationResult<DuplicateDecisionResult, Error, SameDecision> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SameDecision) => apiJson<DuplicateDecisionResult>('POST', `${PREFIX}/${id}/decision`, input),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ predicate: duplicateKeys.decided }),
  });
}
