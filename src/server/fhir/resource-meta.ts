// Versions on the FHIR resources (issue 26 item 3; decision 053): every resource of a clinical row carries the row's
// version as `meta.versionId` and its last change as `meta.lastUpdated` (decision 041's columns), and a version that
// marked the row entered in error shows it in the resource's own status, as FHIR says it (the history and vread show
// such versions; lists and reads leave them out). The ETag of a versioned resource is `W/"<versionId>"`.
import type { FhirResource } from './resources';

/** The version fields of a stored row (contracts/kinds/versioned.ts), as a row or a stored version holds them. */
export interface VersionFields {
  version?: number;
  updatedAt?: string | null;
  enteredInErrorAt?: string | null;
}

/** Where a type says "entered in error" in its verification status (its clinical status must then be absent). */
const VERIFICATION_SYSTEM: Record<string, string> = {
  Condition: 'http://terminology.hl7.org/CodeSystem/condition-ver-status',
  AllergyIntolerance: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification',
};

/**
 * The resource as entered in error: Condition and AllergyIntolerance by their verification status, without a
 * clinical status (con-5, ait-2) or an abatement (con-4 needs a clinical status with one); every other type by its
 * `status`. A kind whose mapping already shows its entered-in-error rows so (or as refuted) is left as it is.
 */
export function enteredInError(r: FhirResource): FhirResource {
  const system = VERIFICATION_SYSTEM[r.resourceType];
  if (!system) return 'status' in r ? { ...r, status: 'entered-in-error' } : r;
  // A mapping that already says why (entered in error, or refuted) is kept as it says it.
  const said = (r.verificationStatus as { coding?: { code?: string }[] } | undefined)?.coding?.[0]?.code;
  if (said === 'entered-in-error' || said === 'refuted') return r;
  const kept = Object.entries(r).filter(([k]) => k !== 'clinicalStatus' && !k.startsWith('abatement'));
  return {
    ...Object.fromEntries(kept),
    resourceType: r.resourceType,
    verificationStatus: { coding: [{ system, code: 'entered-in-error' }] },
  };
}

/** An instant as FHIR writes it, or null for a missing or unreadable one. */
function instant(at: string | null | undefined): string | null {
  if (!at) return null;
  const t = new Date(at);
  return Number.isNaN(t.getTime()) ? null : t.toISOString();
}

/** The resource with `meta.versionId` and `meta.lastUpdated` (its own meta, such as a profile, kept). */
export function withMeta(r: FhirResource, versionId: string | null, lastUpdated: string | null | undefined): FhirResource {
  const at = instant(lastUpdated);
  const { resourceType, id, meta, ...rest } = r;
  return {
    resourceType,
    ...(id !== undefined ? { id } : {}),
    meta: { ...(versionId ? { versionId } : {}), ...(at ? { lastUpdated: at } : {}), ...(meta as object | undefined) },
    ...rest,
  };
}

/** A row's resource as of the row's version: meta, and the entered-in-error status when the version marked it so. */
export function versioned(r: FhirResource, row: VersionFields): FhirResource {
  const out = withMeta(r, row.version ? String(row.version) : null, row.updatedAt);
  return row.enteredInErrorAt ? enteredInError(out) : out;
}

/** A resource's `meta.versionId`, or null. */
export const versionIdOf = (r: FhirResource): string | null => (r.meta as { versionId?: string } | undefined)?.versionId ?? null;

/** The weak ETag of a resource's version (`W/"3"`), or null for a resource without one. */
export function etagOfResource(r: FhirResource): string | null {
  const v = versionIdOf(r);
  return v ? `W/"${v}"` : null;
}
