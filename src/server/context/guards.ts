// Route guards (DESIGN.md §4, STYLE habit 3): every route declares who may call it.
//
//   r.get('/api/things', { onRequest: requireStaff('things.read'), schema }, async (request) => {
//     const actor = staffActor(request); // the narrowed StaffActor
//     ...
//   });
//
// Attach a guard as `onRequest` (preferred: the caller is refused before the body is even parsed, so a signed-out or
// unpermitted caller gets 401/403 whatever it sends) or as `preHandler` (runs after validation). The actor was
// built by the request context from the database on this very request (or, on the hot routes, taken from the worker's cache
// and confirmed by the route's own statement: decision 028), so a role change, a revoked permission or a
// deactivation takes effect on the next request.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Permission } from '../../contracts/constants';
import { AppError, unauthenticated } from '../errors/app-error';
import type { Db } from '../db/client';
import type { PatientActor, StaffActor } from './actor';
import type { RequestScope } from './data-context';

/** A route hook that throws AppError (401/403) or lets the request through. */
export type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export const INSUFFICIENT_PERMISSIONS = 'Insufficient permissions';

/**
 * Signed-in staff only: 401 UNAUTHENTICATED when signed out or signed in as a patient; with a permission,
 * 403 PERMISSION_REQUIRED ('Insufficient permissions') when the user lacks it.
 */
export function requireStaff(permission?: Permission): Guard {
  return async (request) => {
    // A cached actor (decision 028) may be out of date: it is read anew before it is refused anything.
    if (!staffMay(request.actor, permission) && request.actorCheck) await request.refreshActor();
    const actor = request.actor;
    if (actor?.kind !== 'staff') throw unauthenticated();
    if (permission && !actor.permissions.has(permission)) throw new AppError('PERMISSION_REQUIRED', INSUFFICIENT_PERMISSIONS);
  };
}

const staffMay = (actor: FastifyRequest['actor'], permission: Permission | undefined): boolean =>
  actor?.kind === 'staff' && (!permission || actor.permissions.has(permission));

/** Signed-in patients (portal session) only: 401 UNAUTHENTICATED when signed out or signed in as staff. */
export function requirePatient(): Guard {
  return async (request) => {
    // A cached actor (decision 028) may be out of date: it is read anew before it is refused anything.
    if (request.actor?.kind !== 'patient' && request.actorCheck) await request.refreshActor();
    if (request.actor?.kind !== 'patient') throw unauthenticated();
  };
}

/**
 * The patient portal's guard: 401 UNAUTHENTICATED when signed out, 403 PATIENT_PORTAL_ONLY for a staff session (signed in,
 * but the portal is only ever the signed-in patient's own record), patients through.
 */
export function requirePortalPatient(): Guard {
  return async (request) => {
    if (request.actor?.kind !== 'patient' && request.actorCheck) await request.refreshActor();
    const actor = request.actor;
    if (!actor) throw unauthenticated();
    if (actor.kind !== 'patient') throw new AppError('PATIENT_PORTAL_ONLY', PATIENT_PORTAL_ONLY);
  };
}
export const PATIENT_PORTAL_ONLY = 'The patient portal is for signed-in patients only';

/** The staff actor inside a route guarded by requireStaff (throws 401 if called elsewhere by mistake). */
export function staffActor(request: FastifyRequest): StaffActor {
  const actor = request.actor;
  if (actor?.kind !== 'staff') throw unauthenticated();
  return actor;
}

/** The patient actor inside a route guarded by requirePatient. */
export function patientActor(request: FastifyRequest): PatientActor {
  const actor = request.actor;
  if (actor?.kind !== 'patient') throw unauthenticated();
  return actor;
}

/** What a staff route hands its service (decision 009): the guarded actor, the request meta and the server's clock. */
export function staffScope(request: FastifyRequest, db: Db, now: () => Date): RequestScope<StaffActor> {
  return { db, actor: staffActor(request), meta: request.meta, now: now() };
}

/** What a portal route hands its service: the signed-in patient, the request meta and the server's clock. */
export function patientScope(request: FastifyRequest, db: Db, now: () => Date): RequestScope<PatientActor> {
  return { db, actor: patientActor(request), meta: request.meta, now: now() };
}
