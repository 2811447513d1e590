// What a failed engine call says to the user (issue 27): the engine's requests fail with the server's status and
// error code (its own error class, or the api client's ApiError), or with no answer at all (the link). The code picks
// common.json errors.<CODE> like everywhere else (lib/error-text.ts); no answer says the server was not reached.
import type { TFunction } from '../../../lib/translator';
import { errorCodeOf } from '../../../lib/api-error';

interface Answered {
  status: number;
  code?: unknown;
}

const answered = (error: unknown): error is Answered =>
  typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';

/** The server's error code of a failed engine call, or null (no answer, or an answer without one of our codes). */
export function engineErrorCode(error: unknown): string | null {
  const code = errorCodeOf(error) ?? (answered(error) ? error.code : null);
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code) ? code : null;
}

/** The user's text for a failed engine call: its code's, a general error, or `unreachable` when nothing answered. */
export function engineErrorText(t: TFunction, error: unknown, unreachable: string): string {
  const code = engineErrorCode(error);
  if (code) return t(`common:errors.${code}`, { defaultValue: t('common:anError') });
  return answered(error) ? t('common:anError') : unreachable;
}
