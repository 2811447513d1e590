// The clinical record API (SPEC §7 Patients; DESIGN.md §9): for each kind, GET and POST /api/patients/{id}/<kind>
// and DELETE /api/<kind>/{id}; plus GET /api/patients/{id}/record-summary for the dashboard.
// Reads need records.read, adds and deletes records.write, and all of them a live access grant (the service).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { RECORD_KINDS, RECORD_ROW_SCHEMAS, recordIdParams, recordSummary, type RecordKind } from '../../../contracts/record-rows';
import { recordInputs } from '../../../contracts/records';
import { withConfirmedActor } from '../../context/actor-check';
import { requireStaff, staffActor } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import {
  addRecordItem,
  deleteRecordItem,
  listRecordItems,
  readRecordSummary,
  type NewRecordItem,
  type RecordCaller,
} from './records.service';

export function recordsRoutes({ db, config }: AppDeps) {
  const canRead = requireStaff('records.read');
  const canWrite = requireStaff('records.write');
  // Built with the server's clock: "not in the future" follows config.now() (tests move it).
  const inputs = recordInputs(config.now);
  const caller = (request: FastifyRequest): RecordCaller => ({ db, actor: staffActor(request), meta: request.meta, now: config.now() });

  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['records'];

    // Six kinds through one registration: the schemas are widened to ZodType (TypeScript cannot follow one
    // generic kind through the type provider); the schemas themselves still validate and serialize each kind.
    const register = (kind: RecordKind): void => {
      const row: z.ZodType = RECORD_ROW_SCHEMAS[kind];
      const body: z.ZodType = inputs[kind];
      r.get(
        `/api/patients/:id/${kind}`,
        { onRequest: canRead, schema: { tags, params: recordIdParams, response: { 200: z.array(row) } } },
        async (request) => listRecordItems(caller(request), kind, request.params.id),
      );
      r.post(
        `/api/patients/:id/${kind}`,
        { onRequest: canWrite, schema: { tags, params: recordIdParams, body, response: { 201: row } } },
        async (request, reply) => {
          const created = await addRecordItem(caller(request), kind, request.params.id, request.body as NewRecordItem<typeof kind>);
          return reply.status(201).send(created);
        },
      );
      r.delete(
        `/api/${kind}/:id`,
        { onRequest: canWrite, schema: { tags, params: recordIdParams, response: { 204: z.null() } } },
        async (request, reply) => {
          await deleteRecordItem(caller(request), kind, request.params.id);
          return reply.status(204).send(null);
        },
      );
    };
    for (const kind of RECORD_KINDS) register(kind);

    r.get(
      '/api/patients/:id/record-summary',
      {
        onRequest: canRead,
        // Opening a record confirms the worker's cached actor in its one statement (decision 028).
        config: { actorInStatement: true },
        schema: { tags, params: recordIdParams, response: { 200: recordSummary } },
      },
      async (request, reply) =>
        withConfirmedActor(request, reply, 'records.read', (actor, check) =>
          readRecordSummary({ db, actor, meta: request.meta, now: config.now() }, request.params.id, check),
        ),
    );
  };
}
