// The query client's retry rule: a 4xx is final, a network failure or 5xx is retried at most twice.
import { describe, expect, it } from 'vitest';
import { MAX_QUERY_RETRIES, queryClient, shouldRetry, shouldRetryMutation } from './query-client';

describe('query retry policy', () => {
  it('never retries a 4xx answer', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429]) {
      expect(shouldRetry(0, new Error(`${status}: {"code":"VALIDATION_FAILED","message":"Invalid input"}`))).toBe(false);
    }
  });

  it('retries network failures and 5xx twice', () => {
    for (const error of [new TypeError('Failed to fetch'), new Error('500: Internal Server Error'), new Error('503: ')]) {
      expect(shouldRetry(0, error)).toBe(true);
      expect(shouldRetry(MAX_QUERY_RETRIES - 1, error)).toBe(true);
      expect(shouldRetry(MAX_QUERY_RETRIES, error)).toBe(false);
    }
  });

  it('retries a mutation once, never after a 4xx', () => {
    expect(shouldRetryMutation(0, new Error('503: '))).toBe(true);
    expect(shouldRetryMutation(1, new Error('503: '))).toBe(false);
    expect(shouldRetryMutation(0, new Error('409: {"code":"CONFLICT"}'))).toBe(false);
  });

  it('is the default of every query and mutation', () => {
    expect(queryClient.getDefaultOptions().queries?.retry).toBe(shouldRetry);
    expect(queryClient.getDefaultOptions().mutations?.retry).toBe(shouldRetryMutation);
  });
});
