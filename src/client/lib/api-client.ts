// The api client of SPEC §7: credentials on every call; a non-success response throws an ApiError whose message is
// "{status}: {body text or status text}" and which carries the status, code, issues and details (decision 021).
import type { QueryFunction } from '@tanstack/react-query';
import { apiErrorOf } from './api-error';

async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) throw await apiErrorOf(res);
}

export async function apiRequest(method: string, url: string, data?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: data !== undefined ? { 'Content-Type': 'application/json', ...headers } : headers,
    body: data !== undefined ? JSON.stringify(data) : undefined,
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

/** apiRequest plus the JSON body. */
export async function apiJson<T>(method: string, url: string, data?: unknown, headers?: Record<string, string>): Promise<T> {
  const res = await apiRequest(method, url, data, headers);
  return (await res.json()) as T;
}

type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The default query function: GET the first element of the query key and read JSON. */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey }) => {
    const res = await fetch(String(queryKey[0]), { credentials: 'include' });
    if (on401 === 'returnNull' && res.status === 401) return null as T;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}
