import { errorStatus, type ErrorCode, type FieldIssue } from '../../contracts/errors';

export interface AppErrorOptions {
  issues?: FieldIssue[];
  /** Response headers that go with the error, e.g. Retry-After on a 429. */
  headers?: Record<string, string>;
  /** Extra fields of the response body, e.g. the likely duplicates of a 409. */
  details?: Record<string, unknown>;
}

/**
 * The one error type services throw; the error handler turns it into `{ message, code, issues? }`. The status
 * comes from the code (contracts/errors.ts), so a code always travels with the same status; the English message is
 * for API callers and logs, the client translates the code (decision 021).
 */
export class AppError extends Error {
  readonly status: number;
  readonly issues: FieldIssue[] | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = errorStatus[code];
    this.issues = options.issues;
    this.headers = options.headers;
    this.details = options.details;
  }
}

export const unauthenticated = (): AppError => new AppError('UNAUTHENTICATED', 'Authentication required');
export const validationFailed = (issues: FieldIssue[], message = 'Invalid input'): AppError =>
  new AppError('VALIDATION_FAILED', message, { issues });
/** A 429 with Retry-After in whole seconds (at least 1). */
export const tooManyRequests = (
  code: 'LOCKED_OUT' | 'NETWORK_THROTTLED' | 'RATE_LIMITED',
  message: string,
  retryAfterSeconds: number,
): AppError => new AppError(code, message, { headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
