// CDS Hooks 2.0 (issue 25 item 6; decision 045): GET /cds-services (discovery) and POST /cds-services/{id}, for
// system clients only: a bearer token of an API client (decision 020; the request context reads the Authorization
// header under /cds-services as under /fhir/), whose scopes read AllergyIntolerance and MedicationStatement for a
// service call. Without a token 401 (a staff session is not a CDS client), with too few scopes 403. Errors are
// OperationOutcomes, as the specification recommends.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { StaffActor } from '../../context/actor';
import type { Guard } from '../../context/guards';
import { staffScope } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { AppError } from '../../errors/app-error';
import { clientMayAccess, SCOPE_NOT_GRANTED_MESSAGE } from '../api-clients/fhir-access';
import { languageOf } from './cds-cards';
import { callCdsService, discovery } from './cds-hooks.service';

const CHALLENGE = 'Bearer realm="nhr-cds-hooks"';

/** A system client's bearer token; for a service call also the scopes that read allergies and medicines. */
function requireCdsClient(reads: boolean): Guard {
  return async (request) => {
    const actor = request.actor;
    if (actor?.kind !== 'staff' || !actor.client)
      throw new AppError('UNAUTHENTICATED', "A system client's bearer token is required", { headers: { 'www-authenticate': CHALLENGE } });
    if (reads && !(mayRead(actor) && actor.permissions.has('records.read')))
      throw new AppError('SCOPE_NOT_GRANTED', SCOPE_NOT_GRANTED_MESSAGE, {
        headers: {
          'www-authenticate': `${CHALLENGE}, error="insufficient_scope", scope="system/AllergyIntolerance.read system/MedicationStatement.read"`,
        },
      });
  };
}

const mayRead = (actor: StaffActor): boolean =>
  clientMayAccess(actor, 'AllergyIntolerance', 'read') && clientMayAccess(actor, 'MedicationStatement', 'read');

const serviceParams = z.object({ id: z.string().max(100) });

export function cdsHooksRoutes({ db, config }: AppDeps) {
  const scope = (request: FastifyRequest) => staffScope(request, db, config.now);
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['cds-hooks'];

    r.get('/cds-services', { onRequest: requireCdsClient(false), schema: { tags } }, async () => discovery());

    r.post('/cds-services/:id', { onRequest: requireCdsClient(true), schema: { tags, params: serviceParams } }, async (request) =>
      callCdsService(scope(request), request.params.id, request.body, languageOf(request.headers['accept-language'])),
    );
  };
}
