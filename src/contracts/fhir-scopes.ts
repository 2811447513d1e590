// SMART on FHIR v1 scopes for system clients of the FHIR R4 API (issue 14 item 5): `<context>/<type>.<access>`, e.g.
// `patient/*.read`, `patient/Condition.read`, `system/Observation.write`. A client's calls are bounded by its scopes
// and, like staff, by the live access grant and permissions of the record (decision 020).
import type { Permission } from './constants';

/** The resource types /fhir/R4 serves. */
export const FHIR_RESOURCE_TYPES = [
  'Patient',
  'Condition',
  'AllergyIntolerance',
  'MedicationStatement',
  'Immunization',
  'ImmunizationRecommendation',
  'Appointment',
  'Observation',
  'DiagnosticReport',
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

/**
 * The permissions a client's scopes need; its account gets these and no more. Reading any clinical type (or Patient)
 * needs patient search and record reads, AuditEvent needs audit.read, any write needs records.write. A client may not
 * be given a permission its creator does not hold (issue 21 item 5, decision 034): the form offers only those scopes.
 */
export function permissionsForScopes(scopes: Iterable<string>): Set<Permission> {
  const list = [...scopes];
  const needed = new Set<Permission>();
  for (const type of FHIR_RESOURCE_TYPES) {
    if (scopesAllow(list, type, 'read')) {
      if (type === 'AuditEvent') needed.add('audit.read');
      else needed.add('patients.search').add('records.read');
    }
    if (type !== 'AuditEvent' && type !== 'Patient' && scopesAllow(list, type, 'write')) needed.add('records.write');
  }
  return needed;
}

/** The permissions the scopes need that `held` lacks, sorted (empty: the holder may grant them). */
export function permissionsLacking(scopes: Iterable<string>, held: Iterable<string>): Permission[] {
  const have = new Set(held);
  return [...permissionsForScopes(scopes)].filter((p) => !have.has(p)).sort();
}
