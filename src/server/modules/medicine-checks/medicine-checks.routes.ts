// GET /api/medicine-checks/status (decision 043): whether the medicine-check knowledge loaded at start, its version,
// and the problem if not, so the medicines and allergies forms say "medicine checks are unavailable" before anyone
// relies on them. Reference state, no patient: not audited.
import type { FastifyInstance } from 'fastify';
import { medicineChecksStatus } from '../../../contracts/medicine-checks';
import { requireStaff } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { medicineChecksStatusNow } from './medicine-knowledge';

export function medicineChecksRoutes(_deps: AppDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    zodRoutes(app).get(
      '/api/medicine-checks/status',
      { onRequest: requireStaff('records.read'), schema: { tags: ['records'], response: { 200: medicineChecksStatus } } },
      () => medicineChecksStatusNow(),
    );
  };
}
