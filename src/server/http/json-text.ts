// Answers whose JSON was built by the database (issue 29): the exact searches' found patients come out of their
// statement as the API's JSON text, so the Node side neither parses rows nor encodes the answer. Fastify does not
// serialize a string payload whose content type is JSON; the route's response schema still documents the answer, and
// a test holds the text to it (modules/patients/search-answer.test.ts).
import type { FastifyReply } from 'fastify';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Sends `json` (a JSON text) as it is. */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type(JSON_CONTENT_TYPE).send(json);
}
