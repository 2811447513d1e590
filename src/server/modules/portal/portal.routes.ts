// Patient sign-in and the patient portal (SPEC §7: POST /api/auth/patient-login, GET /api/patient-portal/me;
// DESIGN.md §6: GET /api/patient-portal/access-log). Sign-out is POST /api/auth/logout (auth module) for any session.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  accessLogPage,
  accessLogQuery,
  PATIENT_LOGIN_SUCCESS_MESSAGE,
  patientLoginInput,
  patientLoginResult,
  portalRecord,
} from '../../../contracts/portal';
import { patientActor, requirePortalPatient } from '../../context/guards';
import { endSession, startSession } from '../../context/session';
import { zodRoutes, type AppDeps } from '../../deps';
import { unauthenticated } from '../../errors/app-error';
import { completePatientLogin, verifyPatientLogin } from './patient-login.service';
import { portalAccessSummary } from '../../../contracts/privacy-review';
import { loadAccessLog, loadAccessSummary, loadPortalRecord } from './portal.service';

export function portalRoutes(deps: AppDeps) {
  const { db } = deps;
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['patient portal'];
    const patientOnly = requirePortalPatient();
    // The patient was removed since sign-in: the session ends here, with a 401.
    const signedOut = async (request: FastifyRequest, reply: FastifyReply): Promise<never> => {
      await endSession(deps, request, reply);
      throw unauthenticated();
    };

    r.post(
      '/api/auth/patient-login',
      { schema: { tags, body: patientLoginInput, response: { 200: patientLoginResult } } },
      async (request, reply) => {
        const patient = await verifyPatientLogin(deps, request.body, request.meta);
        await startSession(deps, request, reply, { kind: 'patient', patientId: patient.id });
        await completePatientLogin(deps, patient);
        return { message: PATIENT_LOGIN_SUCCESS_MESSAGE, patient: { id: patient.id, firstName: patient.firstName } };
      },
    );

    r.get(
      '/api/patient-portal/me',
      { onRequest: patientOnly, schema: { tags, response: { 200: portalRecord } } },
      async (request, reply) => {
        const record = await loadPortalRecord(db, patientActor(request), request.meta);
        return record ?? signedOut(request, reply);
      },
    );

    r.get(
      '/api/patient-portal/access-log',
      { onRequest: patientOnly, schema: { tags, querystring: accessLogQuery, response: { 200: accessLogPage } } },
      async (request, reply) => {
        const page = await loadAccessLog(db, patientActor(request), request.meta, request.query);
        return page ?? signedOut(request, reply);
      },
    );

    // The overview's counter of unreviewed emergency (break-the-glass) accesses (docs/decisions/018-privacy-review.md).
    r.get(
      '/api/patient-portal/access-summary',
      { onRequest: patientOnly, schema: { tags, response: { 200: portalAccessSummary } } },
      async (request) => loadAccessSummary(db, patientActor(request)),
    );
  };
}
