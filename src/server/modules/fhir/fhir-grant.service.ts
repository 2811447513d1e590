// POST Patient/{id}/$access: a system client (or a staff user) confirms access to one patient's record through the
// FHIR API, exactly as the record's access screen does (DESIGN.md §4): the patient's consent, or a stated reason
// (break-the-glass, which the privacy review then sees). The grant lasts 8 hours and is audited like any other.
import { validationFailed } from '../../errors/app-error';
import { grantRecordAccess } from '../access/access.service';
import type { FhirResource } from '../../fhir/resources';
import type { FhirScope } from './fhir-read.service';

/** The grant's input from a Parameters body: `consent` (valueBoolean) and, without consent, `reason` (valueString). */
export function accessInputOf(body: unknown): { consent: boolean; reason: string | null } {
  const b = body as { resourceType?: unknown; parameter?: unknown } | null;
  const bad = (message: string) => validationFailed([{ path: 'parameter', message }], 'Invalid $access parameters');
  if (!b || b.resourceType !== 'Parameters' || !Array.isArray(b.parameter)) throw bad('Send a Parameters resource');
  let consent: boolean | undefined;
  let reason: string | null = null;
  for (const p of b.parameter as Record<string, unknown>[]) {
    if (p?.name === 'consent' && typeof p.valueBoolean === 'boolean' && consent === undefined) consent = p.valueBoolean;
    else if (p?.name === 'reason' && typeof p.valueString === 'string' && reason === null) reason = p.valueString;
    else throw bad(`Unsupported or repeated parameter: ${String(p?.name)}`);
  }
  if (consent === undefined) throw validationFailed([{ path: 'consent', message: 'validation:accessChoiceRequired' }]);
  return { consent, reason };
}

/** `scope`: gated with the user's (or the client's own) grant limit, counted by the grant's statement (decision 059). */
export async function confirmAccess(scope: FhirScope, patientId: number, body: unknown): Promise<FhirResource> {
  const grant = await grantRecordAccess(scope, { patientId, access: accessInputOf(body) });
  return {
    resourceType: 'Parameters',
    parameter: [
      { name: 'patient', valueReference: { reference: `Patient/${grant.patientId}` } },
      { name: 'consent', valueBoolean: grant.consent },
      ...(grant.reason ? [{ name: 'reason', valueString: grant.reason }] : []),
      { name: 'expires', valueInstant: grant.expiresAt },
    ],
  };
}
