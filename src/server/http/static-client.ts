// Serves the built client: hashed assets cached for a year, index.html never cached, SPA fallback for app routes.
// The document headers (CSP, HSTS, frame and referrer policies: security-headers.ts) go with index.html and
// the API, not with each hashed script and stylesheet: they mean nothing there, and at about 650 bytes a response
// they were a tenth of the sign-in page's bytes on a slow link (issue 21 item 18). The assets keep nosniff and
// same-origin resource policy, which do apply to scripts.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { loadIndexPage, type IndexPage } from './index-page';

const ASSET_PREFIX = '/assets/';

/** Registers the built client's files; answers the page app routes get (undefined when no client is built). */
export async function registerStaticClient(app: FastifyInstance, clientDir: string): Promise<IndexPage | undefined> {
  if (!existsSync(path.join(clientDir, 'index.html'))) return undefined;
  app.addHook('onRoute', (route) => {
    if (!route.url?.startsWith(ASSET_PREFIX)) return;
    // security-headers.ts reads this per route: no document headers on the hashed assets.
    route.config = Object.assign(route.config ?? Object.create(null), { securityHeaders: false });
  });
  await app.register(fastifyStatic, {
    root: clientDir,
    index: false,
    wildcard: false,
    preCompressed: true,
    setHeaders(reply, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (immutable) {
        reply.header('x-content-type-options', 'nosniff');
        reply.header('cross-origin-resource-policy', 'same-origin');
      }
    },
  });
  return loadIndexPage(clientDir);
}
