// SMART on FHIR v1 scopes for system clients of the FHIR R4 API (issue 14 item 5): `<context>/<type>.<access>`, e.g.
// `patient/*.read`, `patient/Condition.read`, `system/Observation.write`. A client's calls are bounded by its scopes
// and, like staff, by the live access grant and permissions of the record (decision 020).

/** The resource types /fhir/R4 serves. */
export const FHIR_RESOURCE_TYPES = [
  'Patient',
  'Condition',
  'AllergyIntolerance',
  'MedicationStatement',
  'Immunization',
  'Appointment',
  'Observation',
  'AuditEvent',
] as const;
export type FhirResourceType = (typeof FHIR_RESOURCE_TYPES)[number];

/** What a call does: read and search are `read`; create is `write`. */
export type FhirAccess = 'read' | 'write';

const SCOPE = /^(patient|user|system)\/(\*|[A-Za-z]+)\.(read|write|\*)$/;

export interface FhirScope {
  context: 'patient' | 'user' | 'system';
  type: FhirResourceType | '*';
  access: FhirAccess | '*';
}

const isType = (t: string): t is FhirResourceType => (FHIR_RESOURCE_TYPES as readonly string[]).includes(t);

/** The scope, or null when it is not a scope this API grants. */
export function parseFhirScope(text: string): FhirScope | null {
  const m = SCOPE.exec(text);
  if (!m) return null;
  const [, context, type, access] = m as unknown as [string, FhirScope['context'], string, FhirScope['access']];
  if (type !== '*' && !isType(type)) return null;
  return { context, type, access };
}

/** Whether any of the scopes allows `access` to resources of `type`. */
export function scopesAllow(scopes: Iterable<string>, type: FhirResourceType, access: FhirAccess): boolean {
  for (const text of scopes) {
    const scope = parseFhirScope(text);
    if (scope && (scope.type === '*' || scope.type === type) && (scope.access === '*' || scope.access === access)) return true;
  }
  return false;
}
