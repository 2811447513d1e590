// Audit and compliance API (SPEC §7): the audit log and compliance reports; every read is itself audited.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import {
  auditLogList,
  auditLogQuery,
  complianceReport,
  complianceReportSummary,
  generateReportInput,
  reportArchived,
  reportListQuery,
  reportRestored,
  DATA_AS_OF_HEADER,
  DATA_SERVER_HEADER,
  REPORT_TOTAL_HEADER,
} from '../../../contracts/audit';
import { recordIdParams } from '../../../contracts/record-api';
import { z } from 'zod';
import { requireStaff, staffScope } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { JSON_CONTENT_TYPE } from '../../http/json-text';
import { rateLimitOf } from '../../http/rate-limit';
import { readAuditLogs } from './audit.service';
import { downloadReport, generateReport, readReports, setReportArchived } from './reports.service';

export function auditRoutes({ db, readDb, config }: AppDeps) {
  const scope = (request: FastifyRequest) => staffScope(request, db, config.now);
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['audit'];

    r.get(
      '/api/audit-logs',
      { onRequest: requireStaff('audit.read'), schema: { tags, querystring: auditLogQuery, response: { 200: auditLogList } } },
      async (request, reply) => {
        // Searched on the standby when there is one (decision 058); the answer says how fresh it is.
        const page = await readAuditLogs(scope(request), request.query, {}, readDb);
        if (page.freshness.dataAsOf) reply.header(DATA_AS_OF_HEADER, page.freshness.dataAsOf);
        return reply.header(DATA_SERVER_HEADER, page.freshness.server).send(page.entries);
      },
    );

    r.get(
      '/api/compliance-reports',
      {
        onRequest: requireStaff('reports.read'),
        schema: { tags, querystring: reportListQuery, response: { 200: z.array(complianceReportSummary) } },
      },
      async (request, reply) => {
        const page = await readReports(scope(request), request.query);
        return reply.header(REPORT_TOTAL_HEADER, String(page.total)).send(page.reports);
      },
    );

    r.post(
      '/api/compliance-reports/generate',
      {
        onRequest: requireStaff('reports.generate'),
        config: { rateLimit: rateLimitOf(config, 'report') },
        schema: { tags, body: generateReportInput, response: { 201: complianceReport } },
      },
      async (request, reply) => reply.status(201).send(await generateReport(scope(request), request.body, { reads: readDb })),
    );

    // The report's data, streamed (issue 10 item 2): the list no longer carries it.
    r.get(
      '/api/compliance-reports/:id/download',
      { onRequest: requireStaff('reports.read'), schema: { tags, params: recordIdParams } },
      async (request, reply) => {
        const chunks = await downloadReport(scope(request), request.params.id);
        return reply
          .type(JSON_CONTENT_TYPE)
          .header('content-disposition', `attachment; filename="compliance-report-${request.params.id}.json"`)
          .send(Readable.from(chunks));
      },
    );

    // Archive (docs/decisions/017-report-archive.md): those who generate reports may archive them.
    r.post(
      '/api/compliance-reports/:id/archive',
      { onRequest: requireStaff('reports.generate'), schema: { tags, params: recordIdParams, response: { 200: reportArchived } } },
      async (request) => setReportArchived(scope(request), request.params.id, true),
    );

    // Restore (issue 21 item 15): an archived report back in the list; the same permission as archive.
    r.post(
      '/api/compliance-reports/:id/restore',
      { onRequest: requireStaff('reports.generate'), schema: { tags, params: recordIdParams, response: { 200: reportRestored } } },
      async (request) => setReportArchived(scope(request), request.params.id, false),
    );
  };
}
