// The immunization API (issue 25 items 1-3, decision 044): a patient's status (records.read and a live grant, audited
// as a record open), the portal patient's own, the schedule versions (immunizations.schedule: administrators), and
// the defaulter list of one's own facility (defaulters.read: nurses and doctors; JSON or CSV, audited as a search).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  defaultersQuery,
  defaultersResponse,
  immunizationSchedule,
  immunizationStatus,
  scheduleVersionRow,
} from '../../../contracts/immunization';
import { DATA_AS_OF_HEADER, DATA_SERVER_HEADER } from '../../../contracts/audit';
import { recordIdParams } from '../../../contracts/record-api';
import { patientScope, requirePortalPatient, requireStaff, staffScope } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { unauthenticated } from '../../errors/app-error';
import { PatientRemoved } from '../access/patient-scope';
import { defaultersCsv, listDefaulters } from './defaulters.service';
import { refreshAllImmunizationDue } from './immunization-due.service';
import { readImmunizationStatus, readOwnImmunizationStatus } from './immunization-status.service';
import { listScheduleVersions, loadSchedule } from './schedule.service';

const tags = ['immunizations'];

export function immunizationRoutes({ db, readDb, config }: AppDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);

    r.get(
      '/api/patients/:id/immunization-status',
      { onRequest: requireStaff('records.read'), schema: { tags, params: recordIdParams, response: { 200: immunizationStatus } } },
      async (request) => readImmunizationStatus(staffScope(request, db, config.now), request.params.id),
    );

    r.get(
      '/api/patient-portal/immunization-status',
      { onRequest: requirePortalPatient(), schema: { tags, response: { 200: immunizationStatus } } },
      async (request) => {
        try {
          return await readOwnImmunizationStatus(patientScope(request, db, config.now));
        } catch (err) {
          if (err instanceof PatientRemoved) throw unauthenticated();
          throw err;
        }
      },
    );

    r.get(
      '/api/immunization-schedules',
      { onRequest: requireStaff('immunizations.schedule'), schema: { tags, response: { 200: z.array(scheduleVersionRow) } } },
      async () => listScheduleVersions(db),
    );

    r.post(
      '/api/immunization-schedules',
      {
        onRequest: requireStaff('immunizations.schedule'),
        schema: { tags, body: immunizationSchedule, response: { 201: scheduleVersionRow } },
      },
      async (request, reply) => {
        const scope = staffScope(request, db, config.now);
        const row = await loadSchedule(scope, request.body, (schedule) => refreshAllImmunizationDue(db, schedule, scope.now));
        return reply.code(201).send(row);
      },
    );

    r.get(
      '/api/defaulters',
      {
        onRequest: requireStaff('defaulters.read'),
        schema: {
          tags,
          querystring: defaultersQuery,
          response: { 200: defaultersResponse.or(z.string().describe('CSV, with format=csv')) },
        },
      },
      async (request, reply) => {
        // Read on the standby when there is one (decision 058); the answer says how fresh it is.
        const { value: list, freshness } = await listDefaulters(staffScope(request, db, config.now), request.query, readDb);
        if (freshness.dataAsOf) reply.header(DATA_AS_OF_HEADER, freshness.dataAsOf);
        reply.header(DATA_SERVER_HEADER, freshness.server);
        if (request.query.format === 'csv')
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="defaulters-${list.from}-${list.to}.csv"`)
            .serializer((payload: unknown) => payload as string)
            .send(defaultersCsv(list));
        return list;
      },
    );
  };
}
