import type { ErrorCode, FieldIssue } from '../../contracts/errors';

/** The one error type services throw; the error handler turns it into `{ message, code, issues? }`. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly issues?: FieldIssue[],
    /** Response headers that go with the error, e.g. Retry-After on a 429. */
    readonly headers?: Record<string, string>,
    /** Extra fields of the response body, e.g. the likely duplicates of a 409. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const unauthenticated = (): AppError => new AppError('UNAUTHENTICATED', 401, 'Authentication required');
export const forbidden = (message = 'You do not have permission to do this'): AppError =>
  new AppError('FORBIDDEN', 403, message);
export const notFound = (message = 'Not found'): AppError => new AppError('NOT_FOUND', 404, message);
export const conflict = (message: string): AppError => new AppError('CONFLICT', 409, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number): AppError =>
  new AppError('RATE_LIMITED', 429, message, undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
