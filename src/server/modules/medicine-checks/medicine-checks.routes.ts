// GET /api/medicine-checks/status (decision 043): whether the medicine-check knowledge loaded at start, its version,
// and the problem if not, so the medicines and allergies forms say "medicine checks are unavailable" before anyone
// relies on them. Reference state, no patient: not audited. GET /api/medicine-checks/report (decision 045): the
// monthly report of alerts shown and overridden, for auditors and administrators (reports.read), audited.
import type { FastifyInstance } from 'fastify';
import { medicineReport, medicineReportQuery } from '../../../contracts/medicine-check-report';
import { medicineChecksStatus } from '../../../contracts/medicine-checks';
import { requireStaff, staffScope } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { medicineChecksStatusNow } from './medicine-knowledge';
import { readMedicineReport } from './medicine-report.service';

export function medicineChecksRoutes({ db, config }: AppDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    zodRoutes(app).get(
      '/api/medicine-checks/report',
      {
        onRequest: requireStaff('reports.read'),
        schema: { tags: ['audit'], querystring: medicineReportQuery, response: { 200: medicineReport } },
      },
      async (request) => readMedicineReport(staffScope(request, db, config.now), request.query),
    );
    zodRoutes(app).get(
      '/api/medicine-checks/status',
      { onRequest: requireStaff('records.read'), schema: { tags: ['records'], response: { 200: medicineChecksStatus } } },
      () => medicineChecksStatusNow(),
    );
  };
}
