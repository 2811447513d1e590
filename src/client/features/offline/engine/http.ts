// The offline engine's requests (issue 27): JSON in and out with the session cookie; a failed request is a
// NetworkError (no answer: try again later) or an HttpError with the server's status and error code.
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('No answer from the server', { cause });
    this.name = 'NetworkError';
  }
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    /** The server's error code (src/contracts/errors.ts), null when the body had none. */
    readonly code: string | null,
  ) {
    super(`${status}: ${code ?? 'no code'}`);
    this.name = 'HttpError';
  }
  /** The server or a proxy failed: the same request may succeed later. */
  get retryable(): boolean {
    return this.status >= 500 || this.status === 429 || this.status === 408;
  }
}

export async function requestJson<T>(fetchFn: typeof fetch, method: string, url: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetchFn(url, {
      method,
      headers: body !== undefined ? { 'content-type': 'application/json' } : {},
      body: body !== undefined ? JSON.stringify(body) : undefined,
      credentials: 'include',
      cache: 'no-store',
    });
  } catch (e) {
    throw new NetworkError(e);
  }
  if (!res.ok) {
    let code: string | null = null;
    try {
      const parsed = (await res.json()) as { code?: unknown };
      if (typeof parsed?.code === 'string') code = parsed.code;
    } catch {
      // not one of ours (a proxy's page): no code
    }
    throw new HttpError(res.status, code);
  }
  // 204 (a discard) has no body.
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}
