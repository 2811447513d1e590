// Standard FHIR search semantics over a type's resources (issue 26 item 4; decision 051): the date parameters of each
// type with prefixes and partial dates (fhir/date-search.ts), `_lastUpdated` (the row's last change), the status
// tokens of Condition and AllergyIntolerance, `_sort` on a date, `_summary`, `_elements` and `_include` of the patient.
// Every value is checked before anything is read (compileSearch throws the 400), then applied to what was read.
import type { FhirResourceType } from '../../../contracts/fhir-scopes';
import { dateTest, rangeOf, targetRange, type DateRange } from '../../fhir/date-search';
import type { FhirResource } from '../../fhir/resources';
import { dataOf, elementsOf, summaryOf } from '../../fhir/summary-elements';
import { unsupported } from '../../fhir/unsupported';
import type { ParsedSearch } from './fhir-search-params';

/** A resource found by a search, with when its row last changed (ISO instant; null when unknown). */
export interface Found {
  resource: FhirResource;
  lastUpdated: string | null;
}

export interface SearchParamDef {
  name: string;
  type: string;
  documentation: string;
}

interface ValueParam extends SearchParamDef {
  value(r: FhirResource): unknown;
}

const DATE_DOC = 'with a prefix eq, ne, lt, gt, le, ge, sa or eb; YYYY, YYYY-MM, YYYY-MM-DD or a dateTime; repeat for a range';
const date = (name: string, what: string, value: (r: FhirResource) => unknown): ValueParam => ({
  name,
  type: 'date',
  documentation: `${what}, ${DATE_DOC}`,
  value,
});
const effective = (r: FhirResource) => r.effectiveDateTime ?? r.effectivePeriod;

/** The date parameters of each type (names and elements as the R4 search parameters define them). */
const DATE_PARAMS: Partial<Record<FhirResourceType | 'DiagnosticReport', ValueParam[]>> = {
  Condition: [
    date('onset-date', 'When the condition began (onsetDateTime)', (r) => r.onsetDateTime),
    date('recorded-date', 'When it was recorded (recordedDate)', (r) => r.recordedDate),
    date('abatement-date', 'When it resolved (abatementDateTime)', (r) => r.abatementDateTime),
  ],
  AllergyIntolerance: [date('date', 'When it was recorded (recordedDate)', (r) => r.recordedDate)],
  MedicationStatement: [date('effective', 'When the medicine was taken (effectivePeriod)', effective)],
  Immunization: [date('date', 'When the vaccine was given (occurrenceDateTime)', (r) => r.occurrenceDateTime)],
  Observation: [date('date', 'When the observation was made or the sample collected (effective)', effective)],
  DiagnosticReport: [date('date', 'The clinically relevant time (effective)', effective)],
  Appointment: [date('date', 'When the appointment starts (start)', (r) => r.start)],
  AuditEvent: [date('date', 'When the event was recorded (recorded)', (r) => r.recorded)],
  ImmunizationRecommendation: [date('date', 'When the recommendation was made (date)', (r) => r.date)],
};

const tokenParam = (name: string, element: string): ValueParam => ({
  name,
  type: 'token',
  documentation: `The ${element} code (code or system|code; several separated by commas: any of them)`,
  value: (r) => r[element],
});
const STATUS_PARAMS = [tokenParam('clinical-status', 'clinicalStatus'), tokenParam('verification-status', 'verificationStatus')];
const TOKEN_PARAMS: Partial<Record<FhirResourceType, ValueParam[]>> = { Condition: STATUS_PARAMS, AllergyIntolerance: STATUS_PARAMS };

export const LAST_UPDATED: SearchParamDef = {
  name: '_lastUpdated',
  type: 'date',
  documentation: `When the resource last changed (meta.lastUpdated), ${DATE_DOC}`,
};
const CONTROLS: SearchParamDef[] = [
  { name: '_summary', type: 'token', documentation: 'count (the total only), true (the summary elements), data or false' },
  { name: '_elements', type: 'string', documentation: 'Top-level elements to return, separated by commas (mandatory ones are kept)' },
];
const SORT = (names: string[]): SearchParamDef => ({
  name: '_sort',
  type: 'string',
  documentation: `Order by ${names.join(', ')}; a leading - for newest first; several separated by commas`,
});
const INCLUDE = (type: string): SearchParamDef => ({
  name: '_include',
  type: 'string',
  documentation: `${type}:patient adds the patient's Patient resource (search mode include)`,
});

export interface SemanticsOptions {
  /** Whether `_include` of the patient is offered (the clinical types). */
  include: boolean;
  /** Whether the type's date parameters are filtered here (false: the search reads them itself, as AuditEvent does). */
  filterDates?: boolean;
}

/** The parameters this module answers for a type: its dates, status tokens, _lastUpdated and the controls. */
export function semanticParamsOf(type: string, options: SemanticsOptions): SearchParamDef[] {
  const dates = DATE_PARAMS[type as FhirResourceType] ?? [];
  const strip = ({ name, type: t, documentation }: ValueParam): SearchParamDef => ({ name, type: t, documentation });
  return [
    ...dates.map(strip),
    ...(TOKEN_PARAMS[type as FhirResourceType] ?? []).map(strip),
    LAST_UPDATED,
    ...CONTROLS,
    SORT([...dates.map((d) => d.name), '_lastUpdated']),
    ...(options.include ? [INCLUDE(type)] : []),
  ];
}

/** A type's own parameters followed by the standard ones (for the routes' documentation and the CapabilityStatement). */
export function typeSearchParams(type: string, own: readonly SearchParamDef[], options: SemanticsOptions): SearchParamDef[] {
  const all = [...own, ...semanticParamsOf(type, options)];
  return all.filter((p, i) => all.findIndex((q) => q.name === p.name) === i);
}

/** The parameters that may be repeated (a date range: ge... and le...). */
export function repeatableParamsOf(type: string): string[] {
  return [...(DATE_PARAMS[type as FhirResourceType] ?? []).map((d) => d.name), '_lastUpdated'];
}

export type SummaryMode = 'count' | 'true' | 'data' | 'false';

export interface CompiledSearch {
  keep(f: Found): boolean;
  compare: ((a: Found, b: Found) => number) | null;
  summary: SummaryMode | null;
  elements: string[] | null;
  includePatient: boolean;
}

function tokenTest(name: string, value: string): (concept: unknown) => boolean {
  const wanted = value.split(',').map((v) => {
    const bar = v.indexOf('|');
    const [system, code] = bar < 0 ? [null, v] : [v.slice(0, bar), v.slice(bar + 1)];
    if (!code && !system) throw unsupported(`Empty token in ${name}=${value}`, name);
    return { system, code };
  });
  return (concept) => {
    const codings = ((concept as { coding?: { system?: string; code?: string }[] } | undefined)?.coding ?? []) as {
      system?: string;
      code?: string;
    }[];
    return codings.some((c) =>
      wanted.some(
        (w) => (w.code === '' || c.code === w.code) && (w.system === null || (w.system === '' ? !c.system : c.system === w.system)),
      ),
    );
  };
}

const SUMMARY_MODES: readonly SummaryMode[] = ['count', 'true', 'data', 'false'];

/** Checks the values of the semantic parameters (400 for a bad one) and returns how to apply them. */
export function compileSearch(type: string, parsed: ParsedSearch, options: SemanticsOptions): CompiledSearch {
  const tests: ((f: Found) => boolean)[] = [];
  const dates = DATE_PARAMS[type as FhirResourceType] ?? [];
  if (options.filterDates !== false)
    for (const d of dates)
      for (const v of parsed.all.get(d.name) ?? []) {
        const t = dateTest(d.name, v);
        tests.push((f) => t(targetRange(d.value(f.resource))));
      }
  for (const v of parsed.all.get('_lastUpdated') ?? []) {
    const t = dateTest('_lastUpdated', v);
    tests.push((f) => t(f.lastUpdated ? rangeOf(f.lastUpdated) : null));
  }
  for (const p of TOKEN_PARAMS[type as FhirResourceType] ?? []) {
    const v = parsed.values.get(p.name);
    if (v === undefined) continue;
    const t = tokenTest(p.name, v);
    tests.push((f) => t(p.value(f.resource)));
  }

  let compare: CompiledSearch['compare'] = null;
  const sort = parsed.values.get('_sort');
  if (sort !== undefined) {
    const keys = sort.split(',').map((k) => {
      const desc = k.startsWith('-');
      const name = desc ? k.slice(1) : k;
      const of: ((f: Found) => DateRange | null) | undefined =
        name === '_lastUpdated'
          ? (f) => (f.lastUpdated ? rangeOf(f.lastUpdated) : null)
          : ((d) => (d ? (f: Found) => targetRange(d.value(f.resource)) : undefined))(dates.find((d) => d.name === name));
      if (!of) throw unsupported(`Unsupported sort: ${k} (${[...dates.map((d) => d.name), '_lastUpdated'].join(', ')})`, '_sort');
      return { of, desc };
    });
    // Missing values sort last either way; ties keep the record's order (Array.prototype.sort is stable).
    compare = (a, b) => {
      for (const { of, desc } of keys) {
        const ra = of(a);
        const rb = of(b);
        if (!ra || !rb) {
          if (ra !== rb) return ra ? -1 : 1;
          continue;
        }
        const d = desc ? rb.end - ra.end || rb.start - ra.start : ra.start - rb.start || ra.end - rb.end;
        if (d !== 0) return d;
      }
      return 0;
    };
  }

  const summaryValue = parsed.values.get('_summary');
  if (summaryValue !== undefined && !SUMMARY_MODES.includes(summaryValue as SummaryMode))
    throw unsupported(`Unsupported _summary: ${summaryValue} (count, true, data or false)`, '_summary');
  const summary = (summaryValue as SummaryMode | undefined) ?? null;
  const elementsValue = parsed.values.get('_elements');
  const elements = elementsValue === undefined ? null : elementsValue.split(',').map((e) => e.trim());
  if (elements?.some((e) => !/^[a-zA-Z][a-zA-Z0-9]*$/.test(e)))
    throw unsupported(`Unsupported _elements: ${elementsValue} (top-level element names)`, '_elements');
  if (elements && summary !== null && summary !== 'false') throw unsupported('_elements and _summary cannot be used together', '_elements');

  let includePatient = false;
  for (const inc of parsed.all.get('_include') ?? []) {
    if (!options.include || (inc !== `${type}:patient` && inc !== `${type}:subject`))
      throw unsupported(`Unsupported _include: ${inc} (${type}:patient)`, '_include');
    includePatient = true;
  }
  return { keep: (f) => tests.every((t) => t(f)), compare, summary, elements, includePatient };
}

/** The found resources the search keeps, in its order. */
export function applySearch(found: Found[], c: CompiledSearch): Found[] {
  const kept = found.filter(c.keep);
  return c.compare ? kept.sort(c.compare) : kept;
}

/** A resource as the search's `_summary` or `_elements` asks for it. */
export function shapeOf(resource: FhirResource, c: Pick<CompiledSearch, 'summary' | 'elements'>): FhirResource {
  if (c.summary === 'true') return summaryOf(resource);
  if (c.summary === 'data') return dataOf(resource);
  if (c.elements) return elementsOf(resource, c.elements);
  return resource;
}

/** The OperationOutcome entry that says which parameters lenient handling left out (search mode outcome). */
export function ignoredOutcome(ignored: readonly string[]): FhirResource | null {
  if (ignored.length === 0) return null;
  return {
    resourceType: 'OperationOutcome',
    issue: ignored.map((name) => ({
      severity: 'warning',
      code: 'not-supported',
      details: { text: `Unsupported search parameter ignored: ${name}` },
      expression: [name],
    })),
  };
}
