// Audit and compliance API (SPEC §7). Every read of audit data is itself audited (in the services).
// Needs src/server/context/guards.ts (requireStaff, staffActor) from the sessions work, and registration in app.ts.
import type { FastifyInstance } from 'fastify';
import {
  auditLogList,
  auditLogQuery,
  complianceReport,
  complianceReportList,
  generateReportInput,
  reportListQuery,
} from '../../../contracts/audit';
import { requireStaff, staffActor } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { readAuditLogs } from './audit.service';
import { generateReport, readReports } from './reports.service';

export function auditRoutes({ db }: AppDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    r.get(
      '/api/audit-logs',
      {
        preHandler: requireStaff('audit.read'),
        schema: { tags: ['audit'], querystring: auditLogQuery, response: { 200: auditLogList } },
      },
      async (request) => readAuditLogs(db, request.query, staffActor(request), request.meta),
    );
    r.get(
      '/api/compliance-reports',
      {
        preHandler: requireStaff('reports.read'),
        schema: { tags: ['audit'], querystring: reportListQuery, response: { 200: complianceReportList } },
      },
      async (request) => readReports(db, request.query, staffActor(request), request.meta),
    );
    r.post(
      '/api/compliance-reports/generate',
      {
        preHandler: requireStaff('reports.generate'),
        schema: { tags: ['audit'], body: generateReportInput, response: { 201: complianceReport } },
      },
      async (request, reply) =>
        reply.status(201).send(await generateReport(db, request.body, staffActor(request), request.meta)),
    );
  };
}
