// The text rule of src/contracts/safe-text.ts for every route, including fields a route's schema leaves open:
// no NUL and no unpaired surrogate in any path parameter, query parameter or JSON body string (keys too).
// Runs after the route's access guard (onRequest), before schema validation and the handler.
import type { FastifyInstance } from 'fastify';
import { findUnsafeText, INVALID_CHARACTERS } from '../../contracts/safe-text';
import { validationFailed } from '../errors/app-error';

export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const parts = { params: request.params, query: request.query, body: request.body } as const;
    for (const [name, value] of Object.entries(parts)) {
      const path = findUnsafeText(value);
      if (path === null) continue;
      throw validationFailed(
        [{ path: name === 'body' ? path : `${name}.${path}`, message: INVALID_CHARACTERS }],
        `Invalid characters in ${name}`,
      );
    }
  });
}
