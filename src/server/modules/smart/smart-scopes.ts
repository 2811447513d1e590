// SMART v2 system scopes at the token endpoint (decision 050): what a client asks for (`system/Patient.rs`,
// `system/Observation.crs`, `system/*.rs`, or the v1 forms `system/Patient.read`) is granted only when the scopes an
// administrator gave the client cover it; the token then carries the granted part in the v1 form the FHIR routes check
// (contracts/fhir-scopes.ts). Reading and searching are one right here (a read route also searches), so a v2 scope asks
// for both or neither: `.r` or `.s` alone is refused rather than silently widened.
import { FHIR_RESOURCE_TYPES, scopesAllow, type FhirAccess, type FhirResourceType } from '../../../contracts/fhir-scopes';

const V2 = /^system\/(\*|[A-Za-z]+)\.(c?r?u?d?s?)$/;
const V1 = /^system\/(\*|[A-Za-z]+)\.(read|write|\*)$/;

const isType = (t: string): t is FhirResourceType => (FHIR_RESOURCE_TYPES as readonly string[]).includes(t);

/** The scopes the SMART configuration announces: v2 read/search and create of every type, and the wildcards. */
export const SMART_SCOPES_SUPPORTED: readonly string[] = [
  'system/*.rs',
  'system/*.cruds',
  ...FHIR_RESOURCE_TYPES.map((t) => `system/${t}.rs`),
];

interface AskedScope {
  type: FhirResourceType | '*';
  accesses: FhirAccess[];
}

/** One requested scope, or why it is refused. */
function parseAsked(text: string): AskedScope | string {
  const v1 = V1.exec(text);
  const v2 = v1 ? null : V2.exec(text);
  const m = v1 ?? v2;
  if (!m) return `${text} is not a system scope this server grants`;
  const [, type, access] = m as unknown as [string, string, string];
  if (type !== '*' && !isType(type)) return `${text}: no such resource type here`;
  if (v1) return { type, accesses: access === '*' ? ['read', 'write'] : [access as FhirAccess] };
  if (access === '') return `${text} names no permission`;
  const r = access.includes('r');
  const s = access.includes('s');
  if (r !== s) return `${text}: read and search are granted together here; ask for .rs`;
  const accesses: FhirAccess[] = [];
  if (r) accesses.push('read');
  if (/[cud]/.test(access)) accesses.push('write');
  return { type, accesses };
}

export type ScopeGrant = { granted: string[]; scope: string } | { refused: string };

/**
 * The scopes of a token for a request's `scope` parameter (space-separated), given the client's own scopes: `granted`
 * (v1 forms, what the FHIR routes check) and `scope` (the request's scopes as asked, for the answer), or `refused` with
 * the first scope the client may not have.
 */
export function grantScopes(requested: string, clientScopes: readonly string[]): ScopeGrant {
  const asked = [...new Set(requested.split(' ').filter((s) => s.length > 0))];
  if (asked.length === 0) return { refused: 'No scope was asked for' };
  const granted = new Set<string>();
  for (const text of asked) {
    const scope = parseAsked(text);
    if (typeof scope === 'string') return { refused: scope };
    const types = scope.type === '*' ? FHIR_RESOURCE_TYPES : [scope.type];
    for (const access of scope.accesses) {
      if (!types.every((t) => scopesAllow(clientScopes, t, access))) return { refused: `${text} was not granted to this client` };
      granted.add(`system/${scope.type}.${access}`);
    }
  }
  return { granted: [...granted].sort(), scope: asked.join(' ') };
}
