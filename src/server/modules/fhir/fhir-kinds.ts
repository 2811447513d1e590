// Which record kinds each clinical FHIR type is made of (most types are one kind; Observation is vital signs and
// laboratory results), from the kinds' own FHIR mappings (modules/records/kinds). The routes, searches, reads,
// creates, the CapabilityStatement and the IPS summary all come from here.
import type { FhirResourceType } from '../../../contracts/fhir-scopes';
import { RECORD_KINDS, type RecordKind } from '../../../contracts/kinds';
import { serverKind } from '../records/kinds';
import type { KindFhir } from '../records/kinds/server-kind';
import type { FhirResource } from '../../fhir/resources';
import { versioned, type VersionFields } from '../../fhir/resource-meta';

export interface FhirKind {
  kind: RecordKind;
  fhir: KindFhir<never>;
  /** The row's resources, the row widened, each with the row's version in its meta (decision 053). */
  resources(row: unknown): FhirResource[];
}

/** The FHIR sides of a kind: its own type, then any further types its rows are (a laboratory report). */
const fhirKinds = (kind: RecordKind): FhirKind[] => {
  const server = serverKind(kind);
  return [server.fhir, ...(server.moreFhir ?? [])].map((side) => {
    const fhir = side as unknown as KindFhir<never>;
    return {
      kind,
      fhir,
      resources: (row: unknown) => (fhir.resources as (r: unknown) => FhirResource[])(row).map((r) => versioned(r, row as VersionFields)),
    };
  });
};

/** The clinical types, in the record's order of their first kind, each with its kinds. */
export const CLINICAL_TYPES: ReadonlyMap<FhirResourceType, readonly FhirKind[]> = RECORD_KINDS.reduce((types, kind) => {
  for (const k of fhirKinds(kind)) types.set(k.fhir.type, [...(types.get(k.fhir.type) ?? []), k]);
  return types;
}, new Map<FhirResourceType, FhirKind[]>());

/** The kinds of a clinical type. */
export const kindsOf = (type: FhirResourceType): readonly FhirKind[] => CLINICAL_TYPES.get(type) ?? [];

/** The search parameters of a type beyond `patient` (each named once). */
export function searchParamsOf(type: FhirResourceType): { name: string; type: string; documentation: string }[] {
  const params = kindsOf(type).flatMap((k) => k.fhir.search?.params ?? []);
  return params.filter((p, i) => params.findIndex((q) => q.name === p.name) === i);
}

/** The types a client can create, each with the kinds that take a resource of it. */
export const CREATABLE_TYPES: FhirResourceType[] = [...CLINICAL_TYPES.keys()].filter((t) => kindsOf(t).some((k) => k.fhir.create !== null));
/** The types a client creates by grouping entries already on the record (fhir-diagnostic-report.service.ts). */
export const GROUPING_TYPES: FhirResourceType[] = ['DiagnosticReport'];
