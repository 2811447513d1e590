// The clinical record API (SPEC §7 Patients; DESIGN.md §9): for each kind (contracts/kinds), GET and POST
// /api/patients/{id}/<kind>, PATCH and DELETE /api/<kind>/{id}; plus GET /api/patients/{id}/record-summary for the
// dashboard. Reads need records.read, changes records.write, and all of them a live access grant (the service).
// An add or edit a kind's check warns about answers 409 CONFIRMATION_REQUIRED until `?confirm=` names its warnings.
// Versions (decision 041): an edit names its version in If-Match; DELETE marks entered in error; an add may carry an
// Idempotency-Key; GET /api/<kind>/{id}/history and GET /api/patients/{id}/changes read versions and changes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { KIND_CONTRACTS, RECORD_KINDS, recordInputs, type RecordKind } from '../../../contracts/kinds';
import { recordIdParams, recordSummary } from '../../../contracts/record-api';
import { confirmQuery } from '../../../contracts/record-warnings';
import {
  changesQuery,
  changesResponse,
  enteredInErrorBody,
  ETAG,
  etagOf,
  historyEntry,
  IDEMPOTENCY_KEY,
  IDEMPOTENT_REPLAYED,
  IF_MATCH,
  isIdempotencyKey,
  versionOfIfMatch,
} from '../../../contracts/record-versions';
import { AppError } from '../../errors/app-error';
import { readItemHistory, readRecordChanges } from './record-history.service';
import { recordMedicineChecks } from '../../../contracts/medicine-checks';
import { readRecordMedicineChecks } from './medicine-findings.service';
import { withConfirmedActor } from '../../context/actor-check';
import { requireStaff, staffActor } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import {
  addRecordItem,
  deleteRecordItem,
  listRecordItems,
  readRecordSummary,
  updateRecordItem,
  type Confirmation,
  type NewRecordItem,
  type RecordCaller,
} from './records.service';

/** An edit's body: any of the kind's input fields; the service checks the edited item whole, as an add. */
const patchBody = z.record(z.string(), z.unknown());

/** The Idempotency-Key of an add, or null; 400 for one that is not a UUID. */
function idempotencyKeyOf(request: FastifyRequest): string | null {
  const raw = request.headers[IDEMPOTENCY_KEY];
  if (raw === undefined) return null;
  const key = (Array.isArray(raw) ? raw[0] : raw)?.trim().toLowerCase() ?? '';
  if (!isIdempotencyKey(key)) throw new AppError('INVALID_IDEMPOTENCY_KEY', 'Idempotency-Key must be a UUID');
  return key;
}

/** The version an edit was made from (If-Match); 428 without one. */
function ifMatchVersion(request: FastifyRequest): number {
  const version = versionOfIfMatch(request.headers[IF_MATCH]);
  if (version === null) throw new AppError('VERSION_REQUIRED', 'Send If-Match with the version of the entry you edited');
  return version;
}

const versionOf = (row: unknown): number => (row as { version: number }).version;

/** `?confirm=` and `?overrideReason=` as the service takes them. */
const confirmationOf = (query: { confirm: string[]; overrideReason: string | null }): Confirmation => ({
  codes: query.confirm,
  overrideReason: query.overrideReason,
});

export function recordsRoutes({ db, config }: AppDeps) {
  const canRead = requireStaff('records.read');
  const canWrite = requireStaff('records.write');
  // Built with the server's clock: "not in the future" follows config.now() (tests move it).
  const inputs = recordInputs(config.now);
  const caller = (request: FastifyRequest): RecordCaller => ({ db, actor: staffActor(request), meta: request.meta, now: config.now() });

  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['records'];

    // Every kind through one registration: the schemas are widened to ZodType (TypeScript cannot follow one
    // generic kind through the type provider); the schemas themselves still validate and serialize each kind.
    const register = (kind: RecordKind): void => {
      const row: z.ZodType = KIND_CONTRACTS[kind].row;
      const body: z.ZodType = inputs[kind];
      r.get(
        `/api/patients/:id/${kind}`,
        { onRequest: canRead, schema: { tags, params: recordIdParams, response: { 200: z.array(row) } } },
        async (request) => listRecordItems(caller(request), kind, request.params.id),
      );
      r.post(
        `/api/patients/:id/${kind}`,
        {
          onRequest: canWrite,
          // Adds and edits confirm the worker's cached actor in their grant check's statement (decision 028).
          config: { actorInStatement: true },
          schema: { tags, params: recordIdParams, querystring: confirmQuery, body, response: { 201: row } },
        },
        async (request, reply) => {
          const key = idempotencyKeyOf(request);
          const { row, replayed } = await withConfirmedActor(request, reply, 'records.write', (scope) =>
            addRecordItem(scope, kind, request.params.id, request.body as NewRecordItem<typeof kind>, confirmationOf(request.query), key),
          );
          if (replayed) reply.header(IDEMPOTENT_REPLAYED, 'true');
          return reply
            .status(201)
            .header(ETAG, etagOf(versionOf(row)))
            .send(row);
        },
      );
      r.patch(
        `/api/${kind}/:id`,
        {
          onRequest: canWrite,
          config: { actorInStatement: true },
          schema: { tags, params: recordIdParams, querystring: confirmQuery, body: patchBody, response: { 200: row } },
        },
        async (request, reply) => {
          const version = ifMatchVersion(request);
          const row = await withConfirmedActor(request, reply, 'records.write', (scope) =>
            updateRecordItem(scope, kind, request.params.id, version, request.body, confirmationOf(request.query), body),
          );
          return reply.header(ETAG, etagOf(versionOf(row))).send(row);
        },
      );
      r.delete(
        `/api/${kind}/:id`,
        { onRequest: canWrite, schema: { tags, params: recordIdParams, body: enteredInErrorBody, response: { 204: z.null() } } },
        async (request, reply) => {
          await deleteRecordItem(caller(request), kind, request.params.id, request.body.reason);
          return reply.status(204).send(null);
        },
      );
      r.get(
        `/api/${kind}/:id/history`,
        { onRequest: canRead, schema: { tags, params: recordIdParams, response: { 200: z.array(historyEntry(row)) } } },
        async (request) => readItemHistory(caller(request), kind, request.params.id),
      );
    };
    for (const kind of RECORD_KINDS) register(kind);

    r.get(
      '/api/patients/:id/changes',
      {
        onRequest: canRead,
        // Like a record open, the delta read confirms the worker's cached actor in its one statement (decision 028).
        config: { actorInStatement: true },
        schema: { tags, params: recordIdParams, querystring: changesQuery, response: { 200: changesResponse } },
      },
      async (request, reply) =>
        withConfirmedActor(request, reply, 'records.read', (scope) =>
          readRecordChanges(scope, { patientId: request.params.id, since: request.query.since }),
        ),
    );

    // Every finding of the medicine checks on the record, minor ones too: the medicines' details (decision 045).
    r.get(
      '/api/patients/:id/medicine-checks',
      { onRequest: canRead, schema: { tags, params: recordIdParams, response: { 200: recordMedicineChecks } } },
      async (request) => readRecordMedicineChecks(caller(request), request.params.id),
    );

    r.get(
      '/api/patients/:id/record-summary',
      {
        onRequest: canRead,
        // Opening a record confirms the worker's cached actor in its one statement (decision 028).
        config: { actorInStatement: true },
        schema: { tags, params: recordIdParams, response: { 200: recordSummary } },
      },
      async (request, reply) => withConfirmedActor(request, reply, 'records.read', (scope) => readRecordSummary(scope, request.params.id)),
    );
  };
}
