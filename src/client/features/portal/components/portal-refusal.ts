// What the patient is told when the portal refuses a sign-in or an activation: the wrong-details text of that form
// (the same for every wrong detail, so nothing is given away), the lockout, a staff session in this browser, else
// the code's own text.
import type { TFunction } from '../../../lib/translator';
import { errorCodeOf } from '../../../lib/api-error';
import { errorText } from '../../../lib/error-text';

export function portalRefusalText(t: TFunction, error: Error, wrongDetails: { code: string; key: string }): string {
  const code = errorCodeOf(error);
  if (code === wrongDetails.code) return t(wrongDetails.key);
  if (code === 'LOCKED_OUT' || code === 'NETWORK_THROTTLED') return t('login.locked');
  if (code === 'PORTAL_FROM_STAFF_SESSION') return t('login.staffSession');
  return errorText(t, error, t('login.failedFallback'));
}
