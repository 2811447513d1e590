// CSRF defence (DESIGN.md §5): state-changing API requests must be JSON (enforced by the content-type parsers)
// and, when the browser sends an Origin, come from this site.
import type { FastifyInstance } from 'fastify';
import { isApiUrl } from '../context/request-context';
import { AppError } from '../errors/app-error';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function registerCsrfGuard(app: FastifyInstance, trustedOrigins: string[]): void {
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
    throw new AppError('CROSS_ORIGIN', 'Cross-site request refused');
  });
}
