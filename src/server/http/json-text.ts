// Answers whose JSON is already built: the exact searches' found patients come out of their statement as the API's
// JSON text (issue 29), so the Node side neither parses rows nor encodes the answer, and a compliance report's data is
// streamed as JSON. Fastify does not serialize a string payload whose content type is JSON; the search route's
// response schema still documents its answer, and a test holds the text to it (modules/patients/search-answer.test.ts).
import type { FastifyReply } from 'fastify';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Sends `json` (a JSON text) as it is. */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type(JSON_CONTENT_TYPE).send(json);
}
