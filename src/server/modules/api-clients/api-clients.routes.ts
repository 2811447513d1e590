// Administration: FHIR system clients (issue 14 item 5, decision 020). The same permission as Manage Users: a client
// is a staff account, and creating one is as strong as approving a registration.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  apiClientIdParams,
  apiClientInput,
  apiClientSmartInput,
  apiClient,
  apiClients,
  apiClientTokenInput,
  createdApiClient,
} from '../../../contracts/api-clients';
import { requireStaff, staffScope } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { createApiClient, issueApiClientToken, listApiClients, revokeApiClient, setApiClientSmart } from './api-clients.service';

export function apiClientsRoutes(deps: AppDeps) {
  const { db, config } = deps;
  const scope = (request: FastifyRequest) => staffScope(request, db, config.now);
  const canManage = requireStaff('users.approve');
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['api-clients'];

    r.get('/api/admin/api-clients', { onRequest: canManage, schema: { tags, response: { 200: apiClients } } }, async (request) =>
      listApiClients(scope(request)),
    );

    r.post(
      '/api/admin/api-clients',
      { onRequest: canManage, schema: { tags, body: apiClientInput, response: { 201: createdApiClient } } },
      async (request, reply) => {
        const created = await createApiClient(scope(request), request.body);
        // The token is in this answer only: no cache may keep it.
        return reply.code(201).header('cache-control', 'no-store').send(created);
      },
    );

    // A new token for a client (decision 030): shown once, the old one stops working at once.
    r.post(
      '/api/admin/api-clients/:id/token',
      { onRequest: canManage, schema: { tags, params: apiClientIdParams, body: apiClientTokenInput, response: { 200: createdApiClient } } },
      async (request, reply) => {
        const issued = await issueApiClientToken(scope(request), request.params.id, request.body.lifetimeDays);
        return reply.header('cache-control', 'no-store').send(issued);
      },
    );

    // SMART Backend Services keys and the client's own limits (decision 050).
    r.put(
      '/api/admin/api-clients/:id/smart',
      { onRequest: canManage, schema: { tags, params: apiClientIdParams, body: apiClientSmartInput, response: { 200: apiClient } } },
      async (request) => setApiClientSmart(scope(request), request.params.id, request.body),
    );

    r.post(
      '/api/admin/api-clients/:id/revoke',
      { onRequest: canManage, schema: { tags, params: apiClientIdParams, response: { 200: apiClient } } },
      async (request) => revokeApiClient(scope(request), request.params.id),
    );
  };
}
