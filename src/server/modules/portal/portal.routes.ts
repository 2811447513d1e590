// Patient sign-in and the patient portal (SPEC §7: POST /api/auth/patient-login, GET /api/patient-portal/me;
// DESIGN.md §6: GET /api/patient-portal/access-log), and portal activation (decision 016: POST
// /api/auth/patient-activate, POST /api/patients/{id}/portal-activation). Sign-out is POST /api/auth/logout (auth
// module) for any session.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  accessLogPage,
  accessLogQuery,
  PATIENT_LOGIN_SUCCESS_MESSAGE,
  patientActivateInput,
  patientLoginInput,
  patientLoginResult,
  patientReauthResult,
  portalActivation,
  portalNotices,
  portalRecord,
  portalStatus,
} from '../../../contracts/portal';
import { passkeyAssertionInput } from '../../../contracts/passkeys';
import { patientReauthInput } from '../../../contracts/portal-login';
import { recordPatientPinProof } from '../auth/patient-reauth.service';
import { recordIdParams } from '../../../contracts/record-api';
import { patientActor, patientScope, requirePortalPatient, requireStaff, staffActor } from '../../context/guards';
import { withConfirmedPatient } from '../../context/actor-check';
import { endSession, startSession } from '../../context/session';
import { zodRoutes, type AppDeps } from '../../deps';
import { unauthenticated } from '../../errors/app-error';
import {
  completePatientLogin,
  confirmPatientPin,
  refusePortalSignInFromStaffSession,
  verifyPatientLogin,
  verifyPatientPasskeyLogin,
  type VerifiedPatient,
} from './patient-login.service';
import {
  activatePortal,
  confirmPortalReset,
  dismissPortalNotices,
  issuePortalActivation,
  markDeskSuspect,
  noteSuspectRead,
  portalNoticesOf,
  portalStatusOf,
} from './portal-activation.service';
import { rateLimitOf } from '../../http/rate-limit';
import { messageResult } from '../../../contracts/auth';
import { portalAccessSummary } from '../../../contracts/privacy-review';
import { loadAccessLog, loadAccessSummary, loadPortalRecord } from './portal.service';
import { readPortalJoins, reportPortalJoin } from './portal-joins.service';
import { portalJoinReport, portalJoins } from '../../../contracts/portal-joins';

export function portalRoutes(deps: AppDeps) {
  const { db, config } = deps;
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['patient portal'];
    const patientOnly = requirePortalPatient();
    // The patient was removed since sign-in: the session ends here, with a 401.
    const signedOut = async (request: FastifyRequest, reply: FastifyReply): Promise<never> => {
      await endSession(deps, request, reply);
      throw unauthenticated();
    };

    // A verified patient gets a new session (any session the request came with ends) and the LOGIN_SUCCESS event.
    // A sign-in with the PIN (or an activation, which sets it) is a fresh PIN proof for the new session (issue 21 item 2).
    const openPortal = async (request: FastifyRequest, reply: FastifyReply, patient: VerifiedPatient) => {
      const sid = await startSession(deps, request, reply, { kind: 'patient', patientId: patient.id });
      if (patient.method === 'pin' || patient.method === 'activation_code') await recordPatientPinProof(db, sid, patient.attempt.now);
      await markDeskSuspect(deps, patient, sid);
      await completePatientLogin(deps, patient);
      return { message: PATIENT_LOGIN_SUCCESS_MESSAGE, patient: { id: patient.id, firstName: patient.firstName } };
    };

    r.post(
      '/api/auth/patient-login',
      { schema: { tags, body: patientLoginInput, response: { 200: patientLoginResult } } },
      async (request, reply) => {
        await refusePortalSignInFromStaffSession(deps, request.actor, request.body.ncNumber, request.meta);
        return openPortal(request, reply, await verifyPatientLogin(deps, request.body, request.meta));
      },
    );

    // A passkey instead of NC number, date of birth and PIN (decision 026); options: POST /api/auth/passkey/options.
    r.post(
      '/api/auth/patient-passkey-login',
      { schema: { tags, body: passkeyAssertionInput, response: { 200: patientLoginResult } } },
      async (request, reply) => {
        await refusePortalSignInFromStaffSession(deps, request.actor, null, request.meta);
        return openPortal(request, reply, await verifyPatientPasskeyLogin(deps, request.body.response, request.meta));
      },
    );

    r.post(
      '/api/auth/patient-activate',
      { schema: { tags, body: patientActivateInput, response: { 200: patientLoginResult } } },
      async (request, reply) => {
        await refusePortalSignInFromStaffSession(deps, request.actor, request.body.ncNumber, request.meta);
        return openPortal(request, reply, await activatePortal(deps, request.body, request.meta));
      },
    );

    // A clinic desk issues a new code (first activation, or a forgotten PIN): audited, shown in the access history.
    // Limited per staff user (RATE_LIMIT_PORTAL_CODES_PER_HOUR) with a volume alert past ALERT_PORTAL_CODES_PER_HOUR.
    r.post(
      '/api/patients/:id/portal-activation',
      {
        onRequest: requireStaff('patients.create'),
        config: { rateLimit: rateLimitOf(config, 'portalCode') },
        schema: { tags, params: recordIdParams, response: { 201: portalActivation } },
      },
      async (request, reply) => {
        const scope = { db, actor: staffActor(request), meta: request.meta, now: config.now() };
        return reply.status(201).send(await issuePortalActivation(scope, request.params.id, config.alerts));
      },
    );

    // The desk's view of the portal (decision 031): active or not, the live code's state; never the code.
    r.get(
      '/api/patients/:id/portal-status',
      { onRequest: requireStaff('patients.create'), schema: { tags, params: recordIdParams, response: { 200: portalStatus } } },
      async (request) => portalStatusOf({ db, actor: staffActor(request), meta: request.meta, now: config.now() }, request.params.id),
    );

    // Two-person rule (decision 031): a second staff member confirms a reset without the patient's current PIN.
    r.post(
      '/api/patients/:id/portal-reset/confirm',
      { onRequest: requireStaff('patients.create'), schema: { tags, params: recordIdParams, response: { 200: portalStatus } } },
      async (request) => confirmPortalReset({ db, actor: staffActor(request), meta: request.meta, now: config.now() }, request.params.id),
    );

    // What the patient is told after a reset two staff members confirmed, until dismissed (decision 031).
    r.get('/api/patient-portal/notices', { onRequest: patientOnly, schema: { tags, response: { 200: portalNotices } } }, async (request) =>
      portalNoticesOf(deps, patientActor(request).patientId),
    );
    r.post(
      '/api/patient-portal/notices/dismiss',
      { onRequest: patientOnly, schema: { tags, response: { 200: messageResult } } },
      async (request) => {
        await dismissPortalNotices(deps, patientActor(request).patientId);
        return { message: 'Notice dismissed' };
      },
    );

    // The patient is told about their records joined into one, and may report a join as wrong (decision 048).
    r.get('/api/patient-portal/joins', { onRequest: patientOnly, schema: { tags, response: { 200: portalJoins } } }, async (request) =>
      readPortalJoins(patientScope(request, db, config.now)),
    );
    r.post(
      '/api/patient-portal/joins/:id/report',
      { onRequest: patientOnly, schema: { tags, params: recordIdParams, response: { 200: portalJoinReport, 201: portalJoinReport } } },
      async (request, reply) => {
        const report = await reportPortalJoin(patientScope(request, db, config.now), request.params.id);
        return reply.status(report.created ? 201 : 200).send(report);
      },
    );

    // The PIN again (issue 21 item 2): adding a passkey needs it within the last minutes.
    r.post(
      '/api/patient-portal/reauth',
      { onRequest: patientOnly, schema: { tags, body: patientReauthInput, response: { 200: patientReauthResult } } },
      async (request, reply) => {
        const { patientId } = patientActor(request);
        if (!(await confirmPatientPin(deps, patientId, request.body.pin, request.meta))) return signedOut(request, reply);
        const at = config.now();
        if (request.meta.sessionHash) await recordPatientPinProof(db, request.meta.sessionHash, at);
        return { message: 'PIN confirmed', verifiedAt: at.toISOString() };
      },
    );

    r.get(
      '/api/patient-portal/me',
      {
        onRequest: patientOnly,
        // The read's statement confirms the worker's cached session itself (decision 028): one round trip.
        config: { actorInStatement: true },
        schema: { tags, response: { 200: portalRecord } },
      },
      async (request, reply) => {
        const read = await withConfirmedPatient(request, reply, loadPortalRecord);
        if (!read) return signedOut(request, reply);
        if (read.suspectIssuer) await noteSuspectRead(deps, read.suspectIssuer, patientActor(request).patientId, request.meta);
        return read.record;
      },
    );

    r.get(
      '/api/patient-portal/access-log',
      { onRequest: patientOnly, schema: { tags, querystring: accessLogQuery, response: { 200: accessLogPage } } },
      async (request, reply) => {
        const page = await loadAccessLog(patientScope(request, db, config.now), request.query);
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
