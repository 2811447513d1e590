// The FHIR routes' guard for system clients (decision 020). A FHIR route declares what it touches:
//
//   r.get('/fhir/R4/Condition', { preHandler: requireFhirAccess('Condition', 'read'), ... }, async (request) => {
//     const actor = staffActor(request); // a signed-in staff user, or a system client (actor.client set)
//     ... the staff permission and the live access grant are checked as for any staff user ...
//   });
//
// A session user is let through (the route checks staff permissions as everywhere); a system client is let through
// only when one of its scopes allows `access` to `type` (SMART v1 `context/type.access`, contracts/fhir-scopes.ts),
// else 403 SCOPE_NOT_GRANTED (an OperationOutcome with code 'forbidden' under /fhir/). Signed out or a patient session:
// 401 with `WWW-Authenticate: Bearer`.
import { scopesAllow, type FhirAccess, type FhirResourceType } from '../../../contracts/fhir-scopes';
import type { StaffActor } from '../../context/actor';
import type { Guard } from '../../context/guards';
import { AppError } from '../../errors/app-error';

export const SCOPE_NOT_GRANTED_MESSAGE = "The client's scopes do not allow this";

/** Whether the staff actor may do `access` on `type` as far as scopes go (true for a session user). */
export const clientMayAccess = (actor: StaffActor, type: FhirResourceType, access: FhirAccess): boolean =>
  !actor.client || scopesAllow(actor.client.scopes, type, access);

export function requireFhirAccess(type: FhirResourceType, access: FhirAccess): Guard {
  return async (request) => {
    const actor = request.actor;
    if (actor?.kind !== 'staff') {
      throw new AppError('UNAUTHENTICATED', 'Authentication required', { headers: { 'www-authenticate': 'Bearer realm="nhr-fhir"' } });
    }
    if (!clientMayAccess(actor, type, access)) {
      throw new AppError('SCOPE_NOT_GRANTED', SCOPE_NOT_GRANTED_MESSAGE, {
        headers: { 'www-authenticate': `Bearer realm="nhr-fhir", error="insufficient_scope", scope="system/${type}.${access}"` },
      });
    }
  };
}
