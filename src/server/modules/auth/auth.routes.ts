// Session API (SPEC §7 Session and setup): sign-in, registration, sign-out, the signed-in user, registration roles.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  currentUser,
  loginInput,
  loginResult,
  messageResult,
  REGISTRATION_SUCCESS_MESSAGE,
  registerInput,
  registrationRoles as registrationRolesSchema,
} from '../../../contracts/auth';
import { loginPending } from '../../../contracts/mfa';
import { requireStaff, staffActor } from '../../context/guards';
import { endSession, startSession } from '../../context/session';
import { zodRoutes, type AppDeps } from '../../deps';
import { rateLimitOf } from '../../http/rate-limit';
import { getCurrentUser } from '../users/users.service';
import { beginSecondFactor, secondFactorStep } from './mfa.service';
import { completeStaffLogin, recordLogout, register, registrationRoles, verifyStaffLogin, warmDummyHash } from './auth.service';

export function authRoutes(deps: AppDeps) {
  const { db, config } = deps;
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['auth'];
    warmDummyHash().catch(() => undefined); // computed now so the first unknown e-mail is not slower

    r.get('/api/auth/user', { onRequest: requireStaff(), schema: { tags, response: { 200: currentUser } } }, async (request) =>
      getCurrentUser(db, staffActor(request)),
    );

    // An enrolled user (or one whose role requires enrolment) gets no session here: the answer says which second
    // step comes next (POST /api/auth/login/second-factor, or the enrolment), decision 024.
    r.post(
      '/api/auth/login',
      { schema: { tags, body: loginInput, response: { 200: z.union([loginResult, loginPending]) } } },
      async (request, reply) => {
        const login = await verifyStaffLogin(deps, request.body, request.meta);
        const { step, methods } = await secondFactorStep(db, login.userId);
        if (step !== 'none') return beginSecondFactor(deps, reply, login, step, request.meta, methods);
        const sid = await startSession(deps, request, reply, { kind: 'staff', userId: login.userId });
        return { message: 'Login successful', user: await completeStaffLogin(deps, login, sid, request.meta) };
      },
    );

    r.post(
      '/api/auth/register',
      {
        config: { rateLimit: rateLimitOf(deps.config, 'registration') },
        schema: { tags, body: registerInput, response: { 201: messageResult } },
      },
      async (request, reply) => {
        await register(deps, request.body, request.meta);
        return reply.status(201).send({ message: REGISTRATION_SUCCESS_MESSAGE });
      },
    );

    // 200 whether or not a session existed: signing out is always possible.
    r.post('/api/auth/logout', { schema: { tags, response: { 200: messageResult } } }, async (request, reply) => {
      const { actor } = request;
      const sid = request.meta.sessionHash;
      await endSession(deps, request, reply);
      await recordLogout(db, actor, sid, request.meta, config.now());
      return { message: 'Logged out successfully' };
    });

    r.get('/api/roles', { schema: { tags, response: { 200: registrationRolesSchema } } }, async () => registrationRoles(db));
  };
}
