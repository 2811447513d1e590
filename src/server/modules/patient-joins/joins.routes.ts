// Joins of two records of one person (decision 048), all behind patients.merge: list, one join, the second
// reviewer's approval, and undo. The "same person" decision itself is POST /api/duplicates/{id}/decision.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { joinIdParams, joinList, joinQuery, joinUndoInput, patientJoin } from '../../../contracts/patient-joins';
import { requireStaff, staffScope } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { approveJoin, joinSettingsOf, readJoins, undoJoin } from './joins.service';

export function patientJoinsRoutes({ db, config }: AppDeps) {
  const canMerge = requireStaff('patients.merge');
  const scope = (request: FastifyRequest) => staffScope(request, db, config.now);
  const settings = joinSettingsOf(config);
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['patient-joins'];

    r.get(
      '/api/patient-joins',
      { onRequest: canMerge, schema: { tags, querystring: joinQuery, response: { 200: joinList } } },
      async (request) => readJoins(scope(request), request.query),
    );

    r.get(
      '/api/patient-joins/:id',
      { onRequest: canMerge, schema: { tags, params: joinIdParams, response: { 200: patientJoin } } },
      async (request) => (await readJoins(scope(request), { id: request.params.id }))[0]!,
    );

    r.post(
      '/api/patient-joins/:id/approve',
      { onRequest: canMerge, schema: { tags, params: joinIdParams, response: { 200: patientJoin } } },
      async (request) => approveJoin(scope(request), request.params.id, settings),
    );

    r.post(
      '/api/patient-joins/:id/undo',
      { onRequest: canMerge, schema: { tags, params: joinIdParams, body: joinUndoInput, response: { 200: patientJoin } } },
      async (request) => undoJoin(scope(request), request.params.id, request.body.reason),
    );
  };
}
