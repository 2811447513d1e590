// Record access (DESIGN.md §4): confirm access to a patient's record, and read the patient's demographics with it.
import type { FastifyInstance } from 'fastify';
import { accessGrant, patientRead, recordAccessInput } from '../../../contracts/access';
import { recordIdParams } from '../../../contracts/record-api';
import { withConfirmedActor } from '../../context/actor-check';
import { requireStaff, staffScope } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { grantRecordAccess, readPatient } from './access.service';

export function accessRoutes({ db, config }: AppDeps) {
  const canRead = requireStaff('records.read');
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['records'];

    r.post(
      '/api/patients/:id/access',
      {
        onRequest: canRead,
        // The grant's statement counts the per-user limit and confirms the worker's cached actor (decisions 028, 059).
        config: { actorInStatement: true },
        schema: { tags, params: recordIdParams, body: recordAccessInput, response: { 201: accessGrant } },
      },
      async (request, reply) => {
        const grant = await withConfirmedActor(
          request,
          reply,
          'records.read',
          (scope) => grantRecordAccess(scope, { patientId: request.params.id, access: request.body }),
          'accessGrant',
        );
        return reply.status(201).send(grant);
      },
    );

    r.get(
      '/api/patients/:id',
      { onRequest: canRead, schema: { tags, params: recordIdParams, response: { 200: patientRead } } },
      async (request) => readPatient(staffScope(request, db, config.now), request.params.id),
    );
  };
}
