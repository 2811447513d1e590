// Searching Observations (vital signs and laboratory results, two kinds of one FHIR type): by category, LOINC code
// and date. Each Observation kind asks `observationFilter` which of its resources a search keeps; a value this API
// cannot answer (another code system, another category, a malformed date) is a 400, never silently ignored.
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
  {
    name: 'date',
    type: 'date',
    documentation: 'When the observation was made or the sample collected: YYYY-MM-DD with an optional prefix eq, ge, le, gt or lt',
  },
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

const DATE_PARAM = /^(eq|ge|le|gt|lt)?(\d{4}-\d{2}-\d{2})$/;

/** `date=ge2025-01-01`: a test of a resource's day (YYYY-MM-DD). */
function dateTest(value: string): (day: string) => boolean {
  const m = DATE_PARAM.exec(value);
  if (!m || Number.isNaN(Date.parse(m[2]!)))
    throw unsupported(`Unsupported date: ${value} (YYYY-MM-DD, prefix eq, ge, le, gt or lt)`, 'date');
  const d = m[2]!;
  switch (m[1] ?? 'eq') {
    case 'ge':
      return (x) => x >= d;
    case 'le':
      return (x) => x <= d;
    case 'gt':
      return (x) => x > d;
    case 'lt':
      return (x) => x < d;
    default:
      return (x) => x === d;
  }
}

const codesOf = (r: FhirResource): string[] =>
  (((r.code as { coding?: { code?: string }[] } | undefined)?.coding ?? []) as { code?: string }[]).map((c) => c.code ?? '');
/** The day of effectiveDateTime, in Namibian time for a timestamp (UTC+2, no daylight saving). */
const dayOf = (r: FhirResource): string => {
  const at = String(r.effectiveDateTime ?? '');
  return at.length > 10 ? new Date(Date.parse(at) + 2 * 3_600_000).toISOString().slice(0, 10) : at;
};

/** Which Observations of `category` a search keeps; null when it asks for another category only. */
export function observationFilter(values: Map<string, string>, category: ObservationCategory): ((r: FhirResource) => boolean) | null {
  const wanted = values.get('category');
  if (wanted !== undefined && categoryOf(wanted) !== category) return null;
  const code = values.get('code');
  const c = code === undefined ? null : codeOf(code);
  const date = values.get('date');
  const onDay = date === undefined ? null : dateTest(date);
  return (r) => (c === null || codesOf(r).includes(c)) && (onDay === null || onDay(dayOf(r)));
}

/** Whether an Observation a client sends says it is a laboratory result (category laboratory). */
export function isLaboratory(r: Json): boolean {
  const categories = (Array.isArray(r.category) ? r.category : []) as unknown[];
  return categories.some((c) =>
    ((Array.isArray(obj(c).coding) ? obj(c).coding : []) as unknown[]).some((x) => obj(x).code === 'laboratory'),
  );
}
