// CSRF defence (DESIGN.md §5): state-changing API requests must be JSON (enforced by the content-type parsers)
// and, when the browser sends an Origin, come from this site. The one exception (decision 050): an origin of
// FHIR_CORS_ORIGINS may call the FHIR API with a bearer token, or the SMART token endpoint (which reads no cookie).
import type { FastifyInstance } from 'fastify';
import { isApiUrl } from '../context/request-context';
import { AppError } from '../errors/app-error';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Cross-site calls a configured CORS origin may make (decision 050): what they carry is not a cookie. */
export interface CorsAllowance {
  origins: readonly string[];
  /** Whether the URL is the FHIR API's (CORS applies), and whether it is the token endpoint. */
  isCorsUrl: (url: string) => boolean;
  isTokenUrl: (url: string) => boolean;
}

export function registerCsrfGuard(app: FastifyInstance, trustedOrigins: string[], cors?: CorsAllowance): void {
  // Only JSON bodies are accepted: a cross-site form cannot send application/json without a CORS preflight.
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', async (request) => {
    if (SAFE.has(request.method) || !isApiUrl(request.url)) return;
    const origin = request.headers.origin;
    if (!origin) return;
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      throw new AppError('CROSS_ORIGIN', 'Cross-site request refused');
    }
    if (host === request.headers.host || trustedOrigins.includes(origin)) return;
    if (cors?.origins.includes(origin) && cors.isCorsUrl(request.url)) {
      const bearer = /^Bearer\s/i.test(request.headers.authorization ?? '');
      if (bearer || cors.isTokenUrl(request.url)) return;
    }
    throw new AppError('CROSS_ORIGIN', 'Cross-site request refused');
  });
}
