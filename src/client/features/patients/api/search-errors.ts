// SPEC §8 search error mapping, by the status of the failed request.
import { asApiError } from '../../../lib/api-error';

export interface HealthcareError {
  /** i18n key in the "search" namespace. */
  messageKey: string;
  code: 'AUTH_EXPIRED' | 'PERMISSION_DENIED' | 'RATE_LIMITED' | 'SERVER_ERROR' | 'UNKNOWN_ERROR';
  severity: 'medium' | 'high' | 'critical';
}

export function mapSearchError(error: unknown): HealthcareError {
  const status = asApiError(error)?.status ?? null;
  if (status === 401) return { messageKey: 'errors.authExpired', code: 'AUTH_EXPIRED', severity: 'high' };
  if (status === 403) return { messageKey: 'errors.permissionDenied', code: 'PERMISSION_DENIED', severity: 'high' };
  // Too many searches in a minute (decision 011): say so, in the user's language, not "unexpected error".
  if (status === 429) return { messageKey: 'errors.rateLimited', code: 'RATE_LIMITED', severity: 'medium' };
  if (status === 500) return { messageKey: 'errors.server', code: 'SERVER_ERROR', severity: 'critical' };
  return { messageKey: 'errors.unknown', code: 'UNKNOWN_ERROR', severity: 'medium' };
}
