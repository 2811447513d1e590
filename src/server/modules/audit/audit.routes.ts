// Audit and compliance API (SPEC §7): the audit log and compliance reports; every read is itself audited.
import type { FastifyInstance } from 'fastify';
import { auditLogList, complianceReport, generateReportInput, reportListQuery, auditLogQuery } from '../../../contracts/audit';
import { z } from 'zod';
import { requireStaff, staffActor } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { rateLimitOf } from '../../http/rate-limit';
import { readAuditLogs } from './audit.service';
import { generateReport, readReports } from './reports.service';

export function auditRoutes({ db, config }: AppDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['audit'];

    r.get(
      '/api/audit-logs',
      { onRequest: requireStaff('audit.read'), schema: { tags, querystring: auditLogQuery, response: { 200: auditLogList } } },
      async (request) => readAuditLogs(db, request.query, staffActor(request), request.meta),
    );

    r.get(
      '/api/compliance-reports',
      { onRequest: requireStaff('reports.read'), schema: { tags, querystring: reportListQuery, response: { 200: z.array(complianceReport) } } },
      async (request) => readReports(db, request.query, staffActor(request), request.meta),
    );

    r.post(
      '/api/compliance-reports/generate',
      { onRequest: requireStaff('reports.generate'), config: { rateLimit: rateLimitOf(config, 'report') }, schema: { tags, body: generateReportInput, response: { 201: complianceReport } } },
      async (request, reply) => reply.status(201).send(await generateReport(db, request.body, staffActor(request), request.meta)),
    );
  };
}
