// Patient registry API (SPEC §7): search (every search audited with its criteria and result count) and add patient.
import type { FastifyInstance } from 'fastify';
import { addPatientRequest, addPatientResponse } from '../../../contracts/patient-requests';
import { patientSearchInput, patientSearchResults } from '../../../contracts/patients';
import { withConfirmedActor } from '../../context/actor-check';
import { requireStaff, staffActor } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { staffLimit } from '../../http/rate-limit';
import { registerPatient, searchRecorded } from './registry.service';

export function patientsRoutes({ db, config }: AppDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['patients'];

    r.post(
      '/api/patients/search',
      {
        onRequest: requireStaff('patients.search'),
        // The search's statement confirms the worker's cached actor itself (decision 028).
        config: { actorInStatement: true },
        schema: { tags, body: patientSearchInput, response: { 200: patientSearchResults } },
      },
      async (request, reply) =>
        withConfirmedActor(request, reply, 'patients.search', (actor, check) =>
          // The per-user search limit is counted by the search itself (decision 014), not by the rate-limit plugin.
          searchRecorded(
            db,
            request.body,
            actor,
            request.meta,
            config.alerts,
            staffLimit(config, 'search', actor.userId, config.now()),
            check,
          ),
        ),
    );

    r.post(
      '/api/admin/patients',
      { onRequest: requireStaff('patients.create'), schema: { tags, body: addPatientRequest, response: { 201: addPatientResponse } } },
      async (request, reply) => {
        const scope = { db, actor: staffActor(request), meta: request.meta, now: config.now() };
        // The duplicate check is a search: counted in the user's search limit and audited (issue 21 item 9).
        const checks = { limit: staffLimit(config, 'search', scope.actor.userId, scope.now), alerts: config.alerts, match: config.match };
        return reply.status(201).send(await registerPatient(scope, request.body, checks));
      },
    );
  };
}
