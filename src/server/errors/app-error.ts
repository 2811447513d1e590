import type { ErrorCode, FieldIssue } from '../../contracts/errors';

/** The one error type services throw; the error handler turns it into `{ message, code, issues? }`. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly issues?: FieldIssue[],
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
