// Search parameters of the FHIR API: each search declares what it supports. An unknown parameter is a 400
// OperationOutcome (strict handling, the default: never silently ignored, issue 14 item 4), or, when the client asks
// `Prefer: handling=lenient`, left out and named in the Bundle's OperationOutcome entry (issue 26 item 4). `_count`
// above the maximum is capped (the self link shows the page size used); `_format` may only ask for JSON.
import { DEFAULT_COUNT, MAX_COUNT, type Page } from './fhir-bundle';
import { unsupported } from '../../fhir/unsupported';

const PAGING = ['_count', '_offset'];
const FORMATS = new Set(['json', 'application/json', 'application/fhir+json']);

export interface ParsedSearch {
  /** The supported parameters: the first value of each. */
  values: Map<string, string>;
  /** Every value of each parameter (a repeatable one, such as a date range, may come more than once: AND). */
  all: Map<string, string[]>;
  page: Page;
  /** The parameters to repeat in paging links (without _count/_offset, without those ignored). */
  params: URLSearchParams;
  /** Parameters left out under lenient handling, each with why. */
  ignored: string[];
}

export interface SearchOptions {
  /** Parameters that may be given more than once (each value must hold). */
  repeatable?: readonly string[];
  /** `Prefer: handling=lenient`: unknown parameters are ignored (and said), not refused. */
  lenient?: boolean;
}

function integer(name: string, text: string, min: number, max: number): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max)
    throw unsupported(`${name} must be a whole number from ${min} to ${max}`, name);
  return Number(text);
}

/** Whether the Prefer header asks for lenient handling (RFC 7240; FHIR search.html#errors). */
export function isLenient(prefer: string | string[] | undefined): boolean {
  const values = (Array.isArray(prefer) ? prefer : [prefer ?? '']).flatMap((p) => p.split(/[,;]/));
  return values.some((v) => v.trim().toLowerCase().replace(/\s+/g, '') === 'handling=lenient');
}

/** Parses a query string against the supported parameter names; 400 for any other (unless lenient) or a repeat. */
export function parseSearch(query: string, supported: readonly string[], options: SearchOptions = {}): ParsedSearch {
  const raw = new URLSearchParams(query);
  const values = new Map<string, string>();
  const all = new Map<string, string[]>();
  const params = new URLSearchParams();
  const ignored: string[] = [];
  let count = DEFAULT_COUNT;
  let offset = 0;
  for (const [name, value] of raw) {
    if (name === '_format') {
      if (!FORMATS.has(value)) throw unsupported(`Only JSON is supported (_format=${value})`, name);
      continue;
    }
    if (!supported.includes(name) && !PAGING.includes(name)) {
      if (!options.lenient) throw unsupported(`Unsupported search parameter: ${name}`, name);
      if (!ignored.includes(name)) ignored.push(name);
      continue;
    }
    const repeatable = options.repeatable?.includes(name) ?? false;
    if ((values.has(name) && !repeatable) || (PAGING.includes(name) && raw.getAll(name).length > 1))
      throw unsupported(`Parameter given more than once: ${name}`, name);
    // Above the maximum page size is capped, not refused (issue 26 item 4): the links say the size used.
    if (name === '_count') count = Math.min(integer(name, value, 1, 1_000_000_000), MAX_COUNT);
    else if (name === '_offset') offset = integer(name, value, 0, 1_000_000);
    else {
      if (value.trim() === '') throw unsupported(`Empty value for ${name}`, name);
      if (!values.has(name)) values.set(name, value);
      all.set(name, [...(all.get(name) ?? []), value]);
      params.append(name, value);
    }
  }
  return { values, all, page: { count, offset }, params, ignored };
}

const PATIENT_REFERENCE = /^(?:(?:https?:\/\/\S+\/)?Patient\/)?([1-9]\d{0,9})$/;

/** `patient=123`, `patient=Patient/123` or an absolute URL ending in Patient/123: the patient id, else 400. */
export function patientParam(value: string): number {
  const m = PATIENT_REFERENCE.exec(value);
  const id = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw unsupported('patient must be a Patient id or reference', 'patient');
  return id;
}
