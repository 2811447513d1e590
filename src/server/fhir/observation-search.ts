// Searching Observations (vital signs and laboratory results, two kinds of one FHIR type): by category and LOINC
// code (the date, as every type's dates, is fhir-search-semantics.ts). Each Observation kind asks `observationFilter` which of its resources a search keeps; a value this API
// cannot answer (another code system, another category) is a 400, never silently ignored.
import { LOINC_SYSTEM } from '../../contracts/code-systems';
import type { FhirResource } from './resources';
import { obj, type Json } from './input';
import { OBSERVATION_CATEGORY } from './resources';
import { unsupported } from './unsupported';

export const OBSERVATION_CATEGORIES = ['vital-signs', 'laboratory'] as const;
export type ObservationCategory = (typeof OBSERVATION_CATEGORIES)[number];

export const OBSERVATION_SEARCH_PARAMS = [
  { name: 'code', type: 'token', documentation: 'A LOINC code, bare or as http://loinc.org|<code>' },
  { name: 'category', type: 'token', documentation: 'vital-signs or laboratory' },
] as const;

function categoryOf(value: string): ObservationCategory {
  const [system, code] = value.includes('|') ? value.split('|', 2) : [OBSERVATION_CATEGORY, value];
  const found = OBSERVATION_CATEGORIES.find((c) => c === code);
  if (!found || (system !== OBSERVATION_CATEGORY && system !== ''))
    throw unsupported(`Unsupported Observation category: ${value}`, 'category');
  return found;
}

function codeOf(value: string): string {
  const [system, code] = value.includes('|') ? value.split('|', 2) : [LOINC_SYSTEM, value];
  if ((system !== LOINC_SYSTEM && system !== '') || !code) throw unsupported(`Unsupported Observation code: ${value} (LOINC only)`, 'code');
  return code;
}

const codesOf = (r: FhirResource): string[] =>
  (((r.code as { coding?: { code?: string }[] } | undefined)?.coding ?? []) as { code?: string }[]).map((c) => c.code ?? '');
/** Which Observations of `category` a search keeps; null when it asks for another category only. */
export function observationFilter(values: Map<string, string>, category: ObservationCategory): ((r: FhirResource) => boolean) | null {
  const wanted = values.get('category');
  if (wanted !== undefined && categoryOf(wanted) !== category) return null;
  const code = values.get('code');
  const c = code === undefined ? null : codeOf(code);
  return (r) => c === null || codesOf(r).includes(c);
}

/** Whether an Observation a client sends says it is a laboratory result (category laboratory). */
export function isLaboratory(r: Json): boolean {
  const categories = (Array.isArray(r.category) ? r.category : []) as unknown[];
  return categories.some((c) =>
    ((Array.isArray(obj(c).coding) ? obj(c).coding : []) as unknown[]).some((x) => obj(x).code === 'laboratory'),
  );
}
