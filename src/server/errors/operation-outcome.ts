// Errors of the FHIR R4 API (/fhir/R4, issue 14 item 4): the same failures as the rest of the API (one error handler,
// one vocabulary of codes: decision 021), answered as a FHIR OperationOutcome with the same HTTP status. The code of
// our vocabulary goes in `details.coding` so a client can act on it; field issues become one issue each with their
// FHIRPath-ish `expression`.
import type { ApiErrorBody, FieldIssue } from '../../contracts/errors';

export const FHIR_PREFIX = '/fhir/';
export const FHIR_JSON = 'application/fhir+json; charset=utf-8';
/** The code system of our error codes inside OperationOutcome.issue.details. */
export const ERROR_CODE_SYSTEM = 'urn:nhr:error-code';

export const isFhirUrl = (url: string): boolean => url.startsWith(FHIR_PREFIX);

/** CDS Hooks (decision 045): discovery and the services; their errors are OperationOutcomes too (in plain JSON). */
export const CDS_HOOKS_PATH = '/cds-services';
export const isCdsHooksUrl = (url: string): boolean => url === CDS_HOOKS_PATH || /^\/cds-services[/?]/.test(url);

/** FHIR's IssueType for an HTTP status (http://hl7.org/fhir/valueset-issue-type.html). */
function issueType(status: number, code: string): string {
  if (code === 'VALIDATION_FAILED' || code === 'UNSUPPORTED_SEARCH_PARAMETER') return status === 422 ? 'processing' : 'invalid';
  if (code === 'FHIR_ELEMENT_NOT_SUPPORTED') return 'not-supported';
  if (code === 'CONDITIONAL_CREATE_AMBIGUOUS') return 'duplicate';
  if (status === 401) return 'login';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 409) return code === 'DUPLICATE_PATIENT' ? 'duplicate' : 'conflict';
  if (status === 412) return 'conflict';
  if (status === 413) return 'too-costly';
  if (status === 422) return 'processing';
  if (status === 429) return 'throttled';
  if (status === 503) return 'transient';
  if (status >= 500) return 'exception';
  return 'invalid';
}

export interface OperationOutcomeIssue {
  severity: 'error' | 'warning' | 'information';
  code: string;
  details?: { coding: { system: string; code: string }[]; text: string };
  diagnostics?: string;
  expression?: string[];
}

export interface OperationOutcome {
  resourceType: 'OperationOutcome';
  issue: OperationOutcomeIssue[];
}

const fieldIssue = (status: number, code: string, issue: FieldIssue): OperationOutcomeIssue => ({
  severity: 'error',
  code: issueType(status, code),
  details: { coding: [{ system: ERROR_CODE_SYSTEM, code }], text: issue.message },
  ...(issue.path ? { expression: [issue.path] } : {}),
});

/** The OperationOutcome of an error body the API would have sent as `{ message, code, issues? }`. */
export function operationOutcomeOf(status: number, body: ApiErrorBody): OperationOutcome {
  const main: OperationOutcomeIssue = {
    severity: 'error',
    code: issueType(status, body.code),
    details: { coding: [{ system: ERROR_CODE_SYSTEM, code: body.code }], text: body.message },
  };
  const issues = body.issues?.length ? body.issues.map((i) => fieldIssue(status, body.code, i)) : [];
  return { resourceType: 'OperationOutcome', issue: [main, ...issues] };
}
