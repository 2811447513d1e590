// Who may call a FHIR route: the same staff permission as the matching staff API route, and for a system client
// (bearer token, decision 020) also a scope that allows this resource type and access (contracts/fhir-scopes.ts).
import type { FastifyRequest } from 'fastify';
import type { Permission } from '../../../contracts/constants';
import { scopesAllow, type FhirAccess, type FhirResourceType } from '../../../contracts/fhir-scopes';
import { requireStaff, type Guard } from '../../context/guards';
import { AppError } from '../../errors/app-error';

export function fhirGuard(permission: Permission, type: FhirResourceType, access: FhirAccess): Guard {
  const staff = requireStaff(permission);
  return async (request: FastifyRequest, reply) => {
    await staff(request, reply);
    const client = request.actor?.kind === 'staff' ? request.actor.client : undefined;
    if (client && !scopesAllow(client.scopes, type, access)) {
      throw new AppError('PERMISSION_REQUIRED', `This client's scopes do not allow ${type} ${access}`);
    }
  };
}
