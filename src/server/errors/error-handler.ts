// The one error handler (DESIGN.md §3): every failure leaves as JSON `{ message, code, issues? }`, never a stack trace.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { errorStatus, type ApiErrorBody, type ErrorCode, type FieldIssue } from '../../contracts/errors';
import { AppError } from './app-error';
import { FHIR_JSON, isCdsHooksUrl, isFhirUrl, operationOutcomeOf } from './operation-outcome';
import type { IndexPage } from '../http/index-page';
import { isConnectionLost } from '../db/primary-pool';

const fastifyCodes: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Request body must be JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'INVALID_JSON', message: 'Request body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'INVALID_JSON', message: 'Request body is not valid JSON' },
};

/** PostgreSQL's query_canceled: the statement timeout (or a cancel) stopped the request's database work. */
const QUERY_CANCELED = '57014';
/** Seconds a client is asked to wait after a statement timeout. */
export const DATABASE_BUSY_RETRY_SECONDS = 2;

/** Whether the error (or the driver error it wraps) is a statement that ran out of time. */
export function isStatementTimeout(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === QUERY_CANCELED) return true;
  }
  return false;
}

/** A 4xx thrown by Fastify or a plugin without one of our codes: the general code of its status. */
function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (status === 429) return 'RATE_LIMITED';
  return 'BAD_REQUEST';
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let status = 500;
    let body: ApiErrorBody = { message: 'Internal server error', code: 'INTERNAL' };

    if (error instanceof AppError) {
      status = error.status;
      body = { ...error.details, message: error.message, code: error.code, ...(error.issues ? { issues: error.issues } : {}) };
      if (error.headers) reply.headers(error.headers);
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      status = 400;
      const issues: FieldIssue[] = error.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: v.message ?? 'Invalid value',
      }));
      body = { message: 'Invalid input', code: 'VALIDATION_FAILED', issues };
    } else if (isStatementTimeout(error)) {
      // The database did not answer within the statement timeout (DATABASE_STATEMENT_TIMEOUT_MS): a clear 503
      // the client can retry, never a request that hangs. The transaction was rolled back: nothing half-done.
      status = 503;
      body = { message: 'The system is busy and could not answer in time. Please try again in a moment.', code: 'DATABASE_BUSY' };
      reply.header('retry-after', String(DATABASE_BUSY_RETRY_SECONDS));
    } else if (isConnectionLost(error)) {
      // The database server went away (a failover, issue 28): the transaction did not finish here, or finished
      // without an answer. A 503 to retry: a retried add with the same Idempotency-Key is stored once.
      status = 503;
      body = {
        message: 'The record system is switching over to its standby server. Please try again in a few seconds.',
        code: 'DATABASE_UNAVAILABLE',
      };
      reply.header('retry-after', String(DATABASE_BUSY_RETRY_SECONDS));
    } else if (error.code && fastifyCodes[error.code]) {
      const known = fastifyCodes[error.code]!;
      status = errorStatus[known.code];
      body = { message: known.message, code: known.code };
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Keeps the status Fastify chose (e.g. 405, 414); the code names its kind.
      status = error.statusCode;
      body = { message: error.message, code: codeForStatus(status) };
    }

    // Log the kind of failure only: a driver error's message and properties can carry query parameters
    // (password hashes, patient data), which must never reach the logs (DESIGN.md §6).
    if (status === 503) request.log.warn({ url: request.routeOptions.url, code: body.code }, 'database busy or unavailable');
    else if (status >= 500)
      request.log.error(
        { errorName: error.name, errorCode: error.code, causeCode: (error.cause as { code?: string } | undefined)?.code },
        'unhandled error',
      );
    // The FHIR API answers the same failure as an OperationOutcome (issue 14 item 4).
    if (isFhirUrl(request.url)) return reply.status(status).type(FHIR_JSON).send(operationOutcomeOf(status, body));
    if (isCdsHooksUrl(request.url)) return reply.status(status).send(operationOutcomeOf(status, body));
    return reply.status(status).send(body);
  });
}

/** Unknown API routes get a JSON 404; with the client built, other GETs get the page in the reader's language (SPA fallback). */
export function registerNotFoundHandler(app: FastifyInstance, page: IndexPage | undefined): void {
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api/') || isFhirUrl(request.url) || isCdsHooksUrl(request.url);
    if (page && !isApi && (request.method === 'GET' || request.method === 'HEAD')) return page.send(request, reply);
    const body: ApiErrorBody = { message: `No route for ${request.method} ${request.url.split('?')[0]}`, code: 'ROUTE_NOT_FOUND' };
    if (isFhirUrl(request.url)) return reply.status(404).type(FHIR_JSON).send(operationOutcomeOf(404, body));
    if (isCdsHooksUrl(request.url)) return reply.status(404).send(operationOutcomeOf(404, body));
    return reply.status(404).send(body);
  });
}
