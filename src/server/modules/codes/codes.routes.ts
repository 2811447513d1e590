// GET /api/codes (issue 22 item 3): type-ahead over the catalogues shipped with the app, for signed-in staff who may
// read records. Not audited: the answer is reference data from catalogues/, it names no patient and reads no row.
import type { FastifyInstance } from 'fastify';
import { codesAnswer, codesQuery } from '../../../contracts/codes';
import { requireStaff } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { searchCodes } from './codes.service';

export function codesRoutes(_deps: AppDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    zodRoutes(app).get(
      '/api/codes',
      { onRequest: requireStaff('records.read'), schema: { tags: ['codes'], querystring: codesQuery, response: { 200: codesAnswer } } },
      async (request) => searchCodes(request.query),
    );
  };
}
