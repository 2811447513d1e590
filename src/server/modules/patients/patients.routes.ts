// Patient registry API (SPEC §7): search (every search audited with its criteria and result count) and add patient.
import type { FastifyInstance } from 'fastify';
import { addPatientRequest, addPatientResponse } from '../../../contracts/patient-requests';
import { patientSearchInput, patientSearchResults } from '../../../contracts/patients';
import { withConfirmedActor } from '../../context/actor-check';
import { requireStaff } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { sendJsonText } from '../../http/json-text';
import { registerPatient, searchAnswered } from './registry.service';

export function patientsRoutes({ config }: AppDeps) {
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
      async (request, reply) => {
        // The per-user search limit is counted by the search itself (decision 014), not by the rate-limit plugin.
        const answer = await withConfirmedActor(
          request,
          reply,
          'patients.search',
          (scope) => searchAnswered(scope, request.body),
          'search',
        );
        // The exact searches' answer is JSON built by their statement, sent as it is (http/json-text.ts).
        return 'json' in answer ? sendJsonText(reply, answer.json) : answer.results;
      },
    );

    r.post(
      '/api/admin/patients',
      { onRequest: requireStaff('patients.create'), schema: { tags, body: addPatientRequest, response: { 201: addPatientResponse } } },
      async (request, reply) =>
        // The duplicate check is a search: counted in the user's search limit and audited (issue 21 item 9).
        reply.status(201).send(await registerPatient(request.gatedScope('search'), request.body, config.match)),
    );
  };
}
