// The document security headers (CSP, HSTS, frame, referrer and cross-origin policies, nosniff...) on every answer
// but the hashed client assets (static-client.ts marks those routes `securityHeaders: false`). Helmet decides the
// headers; they depend on nothing in the request, so they are worked out once here and each answer only copies them.
// @fastify/helmet built Helmet's middleware anew on every request, parsing the CSP directives each time: about a
// tenth of a millisecond of CPU per request (issue 29 item 3).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: this route's answers go without the document security headers (the hashed client assets). */
    securityHeaders?: boolean;
  }
}

/** The headers Helmet sets for `options`, read once by running its middleware on a response that only records them. */
export function securityHeadersOf(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failed: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => (failed = err));
  if (failed) throw failed;
  return Object.freeze(headers);
}

export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers = securityHeadersOf(options);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.securityHeaders !== false) reply.headers(headers);
    done();
  });
}
