// Offline clinic mode's API (issue 27, decision 061; the routes and bodies: src/contracts/offline.ts).
// - POST /api/devices (records.read): switch offline mode on for this browser (a second factor proven recently).
// - GET /api/devices, POST /api/devices/{id}/revoke (users.approve): the administrators' list and revocation.
// - POST /api/devices/{id}/contact, GET .../offline-set, POST .../sync, POST .../discard: the device's own user only
//   (anyone else: 404 DEVICE_NOT_FOUND); all but contact refuse a revoked device with 403 DEVICE_REVOKED.
// - GET /api/offline-reviews, POST /api/offline-reviews/{id}/close (patients.merge): the review tasks sync opened.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { recordInputs } from '../../../contracts/kinds';
import {
  closeReviewInput,
  device,
  deviceContact,
  deviceIdParams,
  devicesPage,
  devicesQuery,
  discardInput,
  enableDeviceInput,
  enabledDevice,
  offlineReview,
  offlineReviewIdParams,
  offlineReviewsPage,
  offlineReviewsQuery,
  offlineSet,
  revokeDeviceInput,
  syncInput,
  syncResponse,
} from '../../../contracts/offline';
import { requireStaff, staffScope } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import {
  closeOfflineReview,
  contactDevice,
  discardWrite,
  enableDevice,
  listDevices,
  listOfflineReviews,
  readOfflineSet,
  revokeDevice,
} from './devices.service';
import { CLOCK_SKEW_MS, syncDevice, type SyncSettings } from './sync.service';

export function devicesRoutes({ db, config }: AppDeps) {
  const canRead = requireStaff('records.read');
  const canApprove = requireStaff('users.approve');
  const canMerge = requireStaff('patients.merge');
  // The device's own routes: any staff member; the service answers 404 for anyone but the device's user.
  const staff = requireStaff();
  const scope = (request: FastifyRequest) => staffScope(request, db, config.now);
  // Entries made offline are checked as adds, with "not in the future" as the device's clock may have seen it.
  const settings: SyncSettings = {
    inputs: recordInputs(() => new Date(config.now().getTime() + CLOCK_SKEW_MS)),
    thresholds: config.match,
  };

  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['offline'];

    r.post(
      '/api/devices',
      { onRequest: canRead, schema: { tags, body: enableDeviceInput, response: { 201: enabledDevice } } },
      async (request, reply) => reply.status(201).send(await enableDevice(scope(request), request.body.label)),
    );

    r.get(
      '/api/devices',
      { onRequest: canApprove, schema: { tags, querystring: devicesQuery, response: { 200: devicesPage } } },
      async (request) => listDevices(scope(request), request.query.cursor),
    );

    r.post(
      '/api/devices/:id/revoke',
      { onRequest: canApprove, schema: { tags, params: deviceIdParams, body: revokeDeviceInput, response: { 200: device } } },
      async (request) => revokeDevice(scope(request), request.params.id, request.body.reason),
    );

    r.post(
      '/api/devices/:id/contact',
      { onRequest: staff, schema: { tags, params: deviceIdParams, response: { 200: deviceContact } } },
      async (request) => contactDevice(scope(request), request.params.id),
    );

    r.get(
      '/api/devices/:id/offline-set',
      { onRequest: staff, schema: { tags, params: deviceIdParams, response: { 200: offlineSet } } },
      async (request) => readOfflineSet(scope(request), request.params.id),
    );

    r.post(
      '/api/devices/:id/sync',
      { onRequest: staff, schema: { tags, params: deviceIdParams, body: syncInput, response: { 200: syncResponse } } },
      async (request) => syncDevice(scope(request), request.params.id, request.body, settings),
    );

    r.post(
      '/api/devices/:id/discard',
      { onRequest: staff, schema: { tags, params: deviceIdParams, body: discardInput, response: { 204: z.null() } } },
      async (request, reply) => {
        await discardWrite(scope(request), request.params.id, request.body);
        return reply.status(204).send(null);
      },
    );

    r.get(
      '/api/offline-reviews',
      { onRequest: canMerge, schema: { tags, querystring: offlineReviewsQuery, response: { 200: offlineReviewsPage } } },
      async (request) => listOfflineReviews(scope(request), request.query.cursor),
    );

    r.post(
      '/api/offline-reviews/:id/close',
      { onRequest: canMerge, schema: { tags, params: offlineReviewIdParams, body: closeReviewInput, response: { 200: offlineReview } } },
      async (request) => closeOfflineReview(scope(request), request.params.id, request.body.note),
    );
  };
}
