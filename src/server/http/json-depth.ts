// Nesting depth of JSON bodies (issue 21 item 6): a body nested thousands of levels deep (8 KB is enough) is refused
// with a 400 before it is parsed into objects, so no recursive step after it (the input guard, schema validation,
// logging) can run out of stack. One parser for application/json and application/fhir+json.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error';

/** Deepest nesting of objects and arrays a request body may have. The deepest real body (a FHIR resource in $match
 * Parameters) is about 8 levels; 32 leaves room and stays far below any stack limit. */
export const MAX_JSON_DEPTH = 32;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether the JSON text nests objects and arrays deeper than `max`: one pass over the text, strings skipped. */
export function jsonDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

export const jsonTooDeep = (): AppError =>
  new AppError('JSON_TOO_DEEP', `Request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`);

type BodyParser = (request: FastifyRequest, body: string, done: (err: Error | null, body?: unknown) => void) => void;

/** Fastify's own JSON parser (prototype poisoning refused) behind the depth check. */
export function depthCheckedJsonParser(app: FastifyInstance): BodyParser {
  const parse = app.getDefaultJsonParser('error', 'error') as BodyParser;
  return (request, body, done) => {
    if (jsonDeeperThan(body)) {
      done(jsonTooDeep());
      return;
    }
    parse(request, body, done);
  };
}

/** Replaces the app's application/json parser with the depth-checked one. */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, depthCheckedJsonParser(app));
}
