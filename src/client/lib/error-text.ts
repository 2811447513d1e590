// The one mapping from an api error to text for the user (STYLE habit 4, decision 021): the error's code picks
// common.json `errors.<CODE>` in the user's language. The server's English message is never shown.
import type { TFunction } from './translator';
import { errorCodeOf } from './api-error';

/** The translated message of the error's code; the fallback when the request failed without one of our codes. */
export function errorText(t: TFunction, error: unknown, fallback: string): string {
  const code = errorCodeOf(error);
  return code ? t(`common:errors.${code}`) : fallback;
}

const ISSUE_KEY = /^validation:[A-Za-z]+$/;

/**
 * The i18n key for a field issue from the server: the contract schemas' messages are `validation:*` keys, shared
 * with the forms; anything else (a message of the schema library itself) becomes the general `validation:invalidValue`.
 */
export function issueKey(message: string, exists: (key: string) => boolean): string {
  return ISSUE_KEY.test(message) && exists(message) ? message : 'validation:invalidValue';
}
