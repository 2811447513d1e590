// Passkeys' API (issue 12 item 2, docs/decisions/026-passkeys.md): the signed-in staff user's or patient's own
// passkeys, and the assertions that sign in or confirm a second factor. The patient's passkey sign-in is in the portal
// module (POST /api/auth/patient-passkey-login).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { loginResult, messageResult } from '../../../contracts/auth';
import { reauthResult } from '../../../contracts/mfa';
import {
  passkeyAssertionInput,
  passkeyIdParams,
  passkeyList,
  passkeyOptions,
  passkeyOptionsInput,
  passkeyRegisterInput,
  passkeyRegistered,
} from '../../../contracts/passkeys';
import type { Actor } from '../../context/actor';
import { requireStaff, staffActor, type Guard } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { unauthenticated } from '../../errors/app-error';
import { rateLimitOf } from '../../http/rate-limit';
import {
  assertionOptions,
  listPasskeys,
  reauthenticateWithPasskey,
  registerPasskey,
  registrationOptions,
  removePasskey,
  secondFactorWithPasskey,
  signInWithPasskey,
} from './passkeys.service';

function actorOf(request: FastifyRequest): Actor {
  const actor = request.actor;
  if (!actor) throw unauthenticated();
  return actor;
}

/** A staff or a patient session: each manages only their own passkeys. */
const signedIn: Guard = async (request) => {
  if (!request.actor) throw unauthenticated();
};

export function passkeyRoutes(deps: AppDeps) {
  const { db } = deps;
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['auth'];

    r.get('/api/auth/passkeys', { onRequest: signedIn, schema: { tags, response: { 200: passkeyList } } }, async (request) =>
      listPasskeys(db, actorOf(request)),
    );

    r.post(
      '/api/auth/passkeys/registration-options',
      { onRequest: signedIn, schema: { tags, response: { 200: passkeyOptions } } },
      async (request) => ({ ...(await registrationOptions(deps, actorOf(request), request.meta)) }),
    );

    r.post(
      '/api/auth/passkeys',
      { onRequest: signedIn, schema: { tags, body: passkeyRegisterInput, response: { 201: passkeyRegistered } } },
      async (request, reply) => reply.status(201).send(await registerPasskey(deps, actorOf(request), request.meta, request.body)),
    );

    r.delete(
      '/api/auth/passkeys/:id',
      { onRequest: signedIn, schema: { tags, params: passkeyIdParams, response: { 200: messageResult } } },
      async (request) => {
        await removePasskey(deps, actorOf(request), request.meta, request.params.id);
        return { message: 'Passkey removed' };
      },
    );

    // Signed out ('sign_in'), between password and second factor ('second_factor'), or signed-in staff ('reauth').
    // Each answer stores a challenge: limited per IP when signed out (per user when signed in), 429 past it.
    r.post(
      '/api/auth/passkey/options',
      {
        config: { rateLimit: rateLimitOf(deps.config, 'passkeyChallenge') },
        schema: { tags, body: passkeyOptionsInput, response: { 200: passkeyOptions } },
      },
      async (request) => ({ ...(await assertionOptions(deps, request, request.body.purpose)) }),
    );

    r.post(
      '/api/auth/passkey-login',
      { schema: { tags, body: passkeyAssertionInput, response: { 200: loginResult } } },
      async (request, reply) => ({
        message: 'Login successful',
        user: await signInWithPasskey(deps, request, reply, request.body.response),
      }),
    );

    r.post(
      '/api/auth/login/second-factor/passkey',
      { schema: { tags, body: passkeyAssertionInput, response: { 200: loginResult } } },
      async (request, reply) => ({
        message: 'Login successful',
        user: await secondFactorWithPasskey(deps, request, reply, request.body.response),
      }),
    );

    r.post(
      '/api/auth/reauth/passkey',
      { onRequest: requireStaff(), schema: { tags, body: passkeyAssertionInput, response: { 200: reauthResult } } },
      async (request) => {
        const at = await reauthenticateWithPasskey(deps, staffActor(request), request.meta, request.body.response);
        return { message: 'Second factor confirmed', verifiedAt: at.toISOString() };
      },
    );
  };
}
