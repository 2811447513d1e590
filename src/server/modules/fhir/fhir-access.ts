// Who may call a FHIR route: a system client only within its scopes (requireFhirAccess, decision 020: 401 with
// WWW-Authenticate when signed out, 403 SCOPE_NOT_GRANTED), then the same staff permission as the matching staff
// API route (403 PERMISSION_REQUIRED); the services then check the live access grant as for anyone.
import type { Permission } from '../../../contracts/constants';
import type { FhirAccess, FhirResourceType } from '../../../contracts/fhir-scopes';
import { requireStaff, type Guard } from '../../context/guards';
import { requireFhirAccess } from '../api-clients/fhir-access';

export function fhirGuard(permission: Permission, type: FhirResourceType, access: FhirAccess): Guard {
  const scoped = requireFhirAccess(type, access);
  const staff = requireStaff(permission);
  return async (request, reply) => {
    await scoped(request, reply);
    await staff(request, reply);
  };
}
