// A refused record open is a security event (issue 21 item 9): every request a staff user (or system client) makes
// without a live access grant, on any route of either API, that ends in 403 ACCESS_GRANT_REQUIRED writes one
// RECORD_ACCESS_REFUSED row naming the user, the patient asked for and the route. Many of them from one user are
// what a privacy officer looks for when someone probes records they were never given.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../errors/app-error';
import { recordSecurityEvent } from '../auth/auth.service';

export const RECORD_ACCESS_REFUSED = 'RECORD_ACCESS_REFUSED';

/** The patient a refused request named: the route's :id on a patient route, or the FHIR `patient` search parameter. */
function patientOf(request: FastifyRequest): number | null {
  const route = request.routeOptions.url ?? '';
  const params = request.params as Record<string, unknown> | undefined;
  const query = request.query as Record<string, unknown> | undefined;
  const raw = /\/(patients|Patient)\/:id/.test(route) ? params?.id : query?.patient;
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.replace(/^Patient\//, '') : '';
  return /^[1-9]\d{0,9}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : null;
}

export function registerAccessRefusalEvents(app: FastifyInstance, db: Db, now: () => Date): void {
  app.addHook('onError', async (request, _reply, error) => {
    if (!(error instanceof AppError) || error.code !== 'ACCESS_GRANT_REQUIRED') return;
    const actor = request.actor;
    if (actor?.kind !== 'staff') return;
    const patientId = patientOf(request);
    try {
      await recordSecurityEvent(db, {
        userId: actor.userId,
        eventType: RECORD_ACCESS_REFUSED,
        severity: 'medium',
        description: 'Record open refused: no confirmed access to this record',
        ipAddress: request.meta.ip,
        userAgent: request.meta.userAgent,
        facility: actor.facility,
        timestamp: now(),
        metadata: {
          patientId,
          method: request.method,
          route: request.routeOptions.url ?? null,
          ...(actor.client ? { clientId: actor.client.id } : {}),
        },
      });
    } catch (err) {
      // The refusal itself stands; a failed event row is logged by kind only (no request data in logs).
      request.log.error({ errorName: (err as Error).name }, 'record access refusal event not written');
    }
  });
}
