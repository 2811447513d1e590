// The structured error the api client throws (decision 021). The client decides by `code`, never by the English
// `message` of the body: the text a user sees comes from the code (error-text.ts).
import { isErrorCode, type ErrorCode, type FieldIssue } from '../../contracts/errors';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The server's code; null when the body was not one of ours (a proxy's HTML page, an empty 502). */
    readonly code: ErrorCode | null,
    readonly issues: FieldIssue[],
    /** The other fields of the body, e.g. `duplicates` of DUPLICATE_PATIENT. */
    readonly details: Record<string, unknown>,
    /** SPEC §7: "{status}: {body text or status text}". */
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** A refusal (4xx): asking again will not change the answer. */
  get isRefusal(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

function isIssue(value: unknown): value is FieldIssue {
  const v = value as Partial<FieldIssue> | null;
  return typeof v === 'object' && v !== null && typeof v.path === 'string' && typeof v.message === 'string';
}

/** Reads a non-success response into an ApiError. */
export async function apiErrorOf(res: Response): Promise<ApiError> {
  const text = (await res.text()) || res.statusText;
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: no code, no issues.
  }
  const { code, issues, message: _message, ...details } = body;
  return new ApiError(
    res.status,
    isErrorCode(code) ? code : null,
    Array.isArray(issues) ? issues.filter(isIssue) : [],
    details,
    `${res.status}: ${text}`,
  );
}

/** The ApiError behind a failed query or mutation, or null for anything else (a network failure). */
export function asApiError(error: unknown): ApiError | null {
  return error instanceof ApiError ? error : null;
}

/** The code of a failed request, or null. */
export function errorCodeOf(error: unknown): ErrorCode | null {
  return asApiError(error)?.code ?? null;
}

/** TanStack Query's retry: never for a refusal (4xx: asking again will not change the answer), else twice (SPEC §9). */
export function retryUnlessRefused(failureCount: number, error: unknown): boolean {
  if (asApiError(error)?.isRefusal) return false;
  return failureCount < 2;
}
