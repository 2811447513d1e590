// The api client of SPEC §7: credentials on every call; a non-success response throws
// "{status}: {body text or status text}".
import type { QueryFunction } from '@tanstack/react-query';
import type { ApiErrorBody } from '../../contracts/errors';

async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = (await res.text()) || res.statusText;
    throw new Error(`${res.status}: ${text}`);
  }
}

export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: data !== undefined ? { 'Content-Type': 'application/json' } : {},
    body: data !== undefined ? JSON.stringify(data) : undefined,
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

/** apiRequest plus the JSON body. */
export async function apiJson<T>(method: string, url: string, data?: unknown): Promise<T> {
  const res = await apiRequest(method, url, data);
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

export interface ParsedApiError {
  status: number | null;
  body: Partial<ApiErrorBody> | null;
  /** The server's message, or the raw text. */
  message: string;
}

/** Reads back an error thrown by the api client. */
export function parseApiError(error: unknown): ParsedApiError {
  const text = error instanceof Error ? error.message : String(error);
  const match = /^(\d{3}): ([\s\S]*)$/.exec(text);
  if (!match) return { status: null, body: null, message: text };
  const status = Number(match[1]);
  const rest = match[2] ?? '';
  try {
    const body = JSON.parse(rest) as Partial<ApiErrorBody>;
    return { status, body, message: typeof body.message === 'string' ? body.message : rest };
  } catch {
    return { status, body: null, message: rest };
  }
}
