// One place that turns an api error into text for the user (STYLE habit 4).
import type { TFunction } from 'i18next';
import { parseApiError } from './api-client';

/** The translated message for a known error code, else the server's message, else the fallback. */
export function errorText(t: TFunction, error: unknown, fallback: string): string {
  const parsed = parseApiError(error);
  const code = parsed.body?.code;
  if (code && t(`common:errors.${code}`, { defaultValue: '' })) return t(`common:errors.${code}`);
  if (parsed.status === null) return fallback;
  return parsed.message || fallback;
}
