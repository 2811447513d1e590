// CORS for the FHIR API and the SMART token endpoint only (decision 050): a browser page served from one of the
// configured origins (FHIR_CORS_ORIGINS) may call /fhir/R4 with a bearer token and get a token at the token endpoint.
// Nothing else allows a cross-site call, and no origin is allowed credentials (cookies): a cross-site page acts only
// with a token it holds. Preflights (OPTIONS with Access-Control-Request-Method) are answered 204.
import type { FastifyInstance, FastifyRequest } from 'fastify';

const ALLOW_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, Accept, Prefer, If-Match, If-None-Match, If-None-Exist, If-Modified-Since';
const EXPOSE_HEADERS =
  'Location, Content-Location, ETag, Last-Modified, WWW-Authenticate, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';
/** How long a browser may keep a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE_S = 600;

/** The URLs CORS applies to: the FHIR base and everything under it (the token endpoint and SMART configuration too). */
export const isCorsUrl = (url: string, base: string): boolean => url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`);

/** The request's Origin when it is one of `origins`, else undefined. */
export function allowedOrigin(request: FastifyRequest, origins: ReadonlySet<string>): string | undefined {
  const origin = request.headers.origin;
  return typeof origin === 'string' && origins.has(origin) ? origin : undefined;
}

export function registerFhirCors(app: FastifyInstance, base: string, configured: readonly string[]): void {
  const origins = new Set(configured);
  app.addHook('onRequest', async (request, reply) => {
    if (!isCorsUrl(request.url, base) || request.headers.origin === undefined) return;
    reply.header('vary', 'Origin');
    const origin = allowedOrigin(request, origins);
    if (!origin) return;
    reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', EXPOSE_HEADERS);
  });
  app.options(`${base}/*`, { schema: { hide: true } }, async (request, reply) => {
    reply.header('allow', ALLOW_METHODS);
    if (allowedOrigin(request, origins) && request.headers['access-control-request-method'] !== undefined) {
      reply
        .header('access-control-allow-methods', ALLOW_METHODS)
        .header('access-control-allow-headers', ALLOW_HEADERS)
        .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_S));
    }
    return reply.code(204).send();
  });
}
