// The staff second factor's API (issue 12 items 2-4, decision 024). SPEC's POST /api/auth/login keeps its path and
// body; these are additions.
import type { FastifyInstance } from 'fastify';
import { loginResult } from '../../../contracts/auth';
import {
  mfaPolicyParams,
  mfaPolicyUpdate,
  mfaRolePolicies,
  mfaStatus,
  passwordReauthInput,
  reauthResult,
  secondFactorInput,
  totpConfirmed,
  totpEnrolment,
  totpUsers as totpUsersSchema,
} from '../../../contracts/mfa';
import { userIdParams } from '../../../contracts/users';
import { messageResult } from '../../../contracts/auth';
import { requireStaff, staffActor, staffScope, type Guard } from '../../context/guards';
import { unauthenticated } from '../../errors/app-error';
import { zodRoutes, type AppDeps } from '../../deps';
import {
  confirmTotpEnrolment,
  disableTotp,
  mfaStatusOf,
  reauthenticate,
  reauthenticateWithPassword,
  resetUserSecondFactors,
  resetUserTotp,
  rolePolicies,
  setRolePolicy,
  startTotpEnrolment,
  totpUsers,
  verifyLoginSecondFactor,
} from './mfa.service';

/** Enrolment: a staff session or none (the enrolment challenge is checked by the service); never a patient's. */
const notPatient: Guard = async (request) => {
  if (request.actor?.kind === 'patient') throw unauthenticated();
};

export function mfaRoutes(deps: AppDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['auth'];

    r.post(
      '/api/auth/login/second-factor',
      { schema: { tags, body: secondFactorInput, response: { 200: loginResult } } },
      async (request, reply) => ({
        message: 'Login successful',
        user: await verifyLoginSecondFactor(deps, request, reply, request.body.code),
      }),
    );

    r.get('/api/auth/mfa', { onRequest: requireStaff(), schema: { tags, response: { 200: mfaStatus } } }, async (request) =>
      mfaStatusOf(deps, staffActor(request), request.meta.sessionHash),
    );

    // Signed-in staff, or a user whose role requires a second factor, between password and enrolment.
    r.post('/api/auth/mfa/totp/enrol', { onRequest: notPatient, schema: { tags, response: { 200: totpEnrolment } } }, async (request) =>
      startTotpEnrolment(deps, request),
    );

    r.post(
      '/api/auth/mfa/totp/confirm',
      { onRequest: notPatient, schema: { tags, body: secondFactorInput, response: { 200: totpConfirmed } } },
      async (request, reply) => confirmTotpEnrolment(deps, request, reply, request.body.code),
    );

    r.post(
      '/api/auth/mfa/totp/disable',
      { onRequest: requireStaff(), schema: { tags, body: secondFactorInput, response: { 200: messageResult } } },
      async (request) => {
        await disableTotp(deps, staffActor(request), request.meta, request.body.code);
        return { message: 'Authenticator removed' };
      },
    );

    r.post(
      '/api/auth/reauth',
      { onRequest: requireStaff(), schema: { tags, body: secondFactorInput, response: { 200: reauthResult } } },
      async (request) => {
        const at = await reauthenticate(deps, staffActor(request), request.meta, request.body.code);
        return { message: 'Second factor confirmed', verifiedAt: at.toISOString() };
      },
    );

    // Users without a second factor confirm their password before grants past the hourly volume (issue 21 item 8).
    r.post(
      '/api/auth/reauth/password',
      { onRequest: requireStaff(), schema: { tags, body: passwordReauthInput, response: { 200: reauthResult } } },
      async (request) => {
        const at = await reauthenticateWithPassword(deps, staffActor(request), request.meta, request.body.password);
        return { message: 'Password confirmed', verifiedAt: at.toISOString() };
      },
    );

    r.get(
      '/api/admin/mfa-policy',
      { onRequest: requireStaff('users.approve'), schema: { tags: ['admin'], response: { 200: mfaRolePolicies } } },
      async () => rolePolicies(deps.db),
    );

    r.put(
      '/api/admin/mfa-policy/:roleId',
      {
        onRequest: requireStaff('users.approve'),
        schema: { tags: ['admin'], params: mfaPolicyParams, body: mfaPolicyUpdate, response: { 200: mfaRolePolicies } },
      },
      async (request) => setRolePolicy(deps, staffActor(request), request.meta, request.params.roleId, request.body.policy),
    );

    // An administrator resets a lost authenticator app (audited; the user enrols again where the role requires it).
    r.get(
      '/api/admin/second-factors',
      { onRequest: requireStaff('users.approve'), schema: { tags: ['admin'], response: { 200: totpUsersSchema } } },
      async () => totpUsers(deps.db),
    );

    r.delete(
      '/api/admin/users/:id/totp',
      { onRequest: requireStaff('users.approve'), schema: { tags: ['admin'], params: userIdParams, response: { 200: messageResult } } },
      async (request) => {
        await resetUserTotp(staffScope(request, deps.db, deps.config.now), request.params.id);
        return { message: 'Authenticator app reset' };
      },
    );

    // Any second factor, a passkey included (issue 21 item 13): everything goes, the user is signed out everywhere.
    r.delete(
      '/api/admin/users/:id/second-factors',
      { onRequest: requireStaff('users.approve'), schema: { tags: ['admin'], params: userIdParams, response: { 200: messageResult } } },
      async (request) => {
        await resetUserSecondFactors(staffScope(request, deps.db, deps.config.now), request.params.id);
        return { message: 'Second factors reset' };
      },
    );
  };
}
