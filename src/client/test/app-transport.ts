// Component tests talk to the real server (DEVELOPERS.md: no mock of our own system): this fetch hands every request
// the client makes to the real Fastify app through `inject`, with the signed-in user's session cookie, and keeps a
// log so a test can count what the form sent.
import type { FastifyInstance } from 'fastify';

export interface SentRequest {
  method: string;
  url: string;
  body: unknown;
  status: number;
  /** The request's headers as the page set them (the session cookie is added by the transport, not listed). */
  headers: Record<string, string>;
  /** The answer's headers. */
  responseHeaders: Record<string, string>;
}

export interface AppTransport {
  sent: SentRequest[];
  restore(): void;
}

const headersOf = (init: RequestInit | undefined): Record<string, string> => {
  const out: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, key) => {
    out[key] = value;
  });
  return out;
};

/** Routes the page's fetch to `app` as the user holding `cookie` (a session cookie from a real sign-in). */
export function installAppTransport(app: FastifyInstance, cookie: string): AppTransport {
  const original = globalThis.fetch;
  const sent: SentRequest[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? `${input.pathname}${input.search}` : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? init.body : undefined;
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: { ...headersOf(init), cookie },
      ...(body !== undefined ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [key, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(key, value);
    sent.push({
      method,
      url,
      body: body === undefined ? undefined : (JSON.parse(body) as unknown),
      status: res.statusCode,
      headers: headersOf(init),
      responseHeaders: Object.fromEntries(headers),
    });
    const empty = res.statusCode === 204 || res.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers });
  };
  return {
    sent,
    restore() {
      globalThis.fetch = original;
    },
  };
}
