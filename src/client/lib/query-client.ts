// TanStack Query with the SPEC §9 settings. A 4xx answer is final (bad input, no permission, not found): it is
// never retried, so the user sees its message at once; network failures and 5xx are retried (queries twice,
// mutations once).
import { QueryClient } from '@tanstack/react-query';
import { getQueryFn, parseApiError } from './api-client';

export const MAX_QUERY_RETRIES = 2;
export const MAX_MUTATION_RETRIES = 1;

const isClientError = (error: unknown): boolean => {
  const { status } = parseApiError(error);
  return status !== null && status >= 400 && status < 500;
};

/** Whether a failed query should be tried again (failureCount: failures so far). */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return !isClientError(error) && failureCount < MAX_QUERY_RETRIES;
}

/** The same for mutations (SPEC §9: once); mutations that must never repeat set retry: false. */
export function shouldRetryMutation(failureCount: number, error: unknown): boolean {
  return !isClientError(error) && failureCount < MAX_MUTATION_RETRIES;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      staleTime: 5 * 60 * 1000,
      gcTime: 10 * 60 * 1000,
      retry: shouldRetry,
      refetchOnWindowFocus: false,
      refetchOnReconnect: true,
      refetchInterval: false,
    },
    mutations: { retry: shouldRetryMutation },
  },
});
