// Search parameters of the FHIR API: each search declares what it supports; anything else is a 400 OperationOutcome,
// never silently ignored (issue 14 item 4). `_count` and `_offset` page; `_format` may only ask for JSON.
import { DEFAULT_COUNT, MAX_COUNT, type Page } from './fhir-bundle';
import { unsupported } from '../../fhir/unsupported';

const PAGING = ['_count', '_offset'];
const FORMATS = new Set(['json', 'application/json', 'application/fhir+json']);

export interface ParsedSearch {
  /** The supported parameters, each given once. */
  values: Map<string, string>;
  page: Page;
  /** The parameters to repeat in paging links (without _count/_offset). */
  params: URLSearchParams;
}

function integer(name: string, text: string, min: number, max: number): number {
  if (!/^\d{1,6}$/.test(text) || Number(text) < min || Number(text) > max)
    throw unsupported(`${name} must be a whole number from ${min} to ${max}`, name);
  return Number(text);
}

/** Parses a query string against the supported parameter names; 400 for any other, repeated or modified parameter. */
export function parseSearch(query: string, supported: readonly string[]): ParsedSearch {
  const raw = new URLSearchParams(query);
  const values = new Map<string, string>();
  const params = new URLSearchParams();
  let count = DEFAULT_COUNT;
  let offset = 0;
  for (const [name, value] of raw) {
    if (name === '_format') {
      if (!FORMATS.has(value)) throw unsupported(`Only JSON is supported (_format=${value})`, name);
      continue;
    }
    if (!supported.includes(name) && !PAGING.includes(name)) throw unsupported(`Unsupported search parameter: ${name}`, name);
    if (values.has(name) || (PAGING.includes(name) && raw.getAll(name).length > 1))
      throw unsupported(`Parameter given more than once: ${name}`, name);
    if (name === '_count') count = integer(name, value, 1, MAX_COUNT);
    else if (name === '_offset') offset = integer(name, value, 0, 1_000_000);
    else {
      if (value.trim() === '') throw unsupported(`Empty value for ${name}`, name);
      values.set(name, value);
      params.set(name, value);
    }
  }
  return { values, page: { count, offset }, params };
}

const PATIENT_REFERENCE = /^(?:(?:https?:\/\/\S+\/)?Patient\/)?([1-9]\d{0,9})$/;

/** `patient=123`, `patient=Patient/123` or an absolute URL ending in Patient/123: the patient id, else 400. */
export function patientParam(value: string): number {
  const m = PATIENT_REFERENCE.exec(value);
  const id = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw unsupported('patient must be a Patient id or reference', 'patient');
  return id;
}
