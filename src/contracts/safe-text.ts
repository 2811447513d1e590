// The one rule for text and dates in every request (issue 10 item 7). PostgreSQL cannot store NUL, a lone UTF-16
// surrogate is no character at all, and dates outside a real range overflow date arithmetic: all three are refused
// with 400 by the shared schemas (forms and routes) and, for any field a schema misses, by the server's input guard.

/** Field message for text with a NUL or an unpaired surrogate (an i18n key, translated by the client). */
export const INVALID_CHARACTERS = 'validation:invalidCharacters';
/** Field message for a date outside DATE_MIN_YEAR..DATE_MAX_YEAR. */
export const DATE_OUT_OF_RANGE = 'validation:dateOutOfRange';

/**
 * The years a date may have anywhere in the API: every age SPEC allows (0-150 years back) and every date up to
 * 100 years ahead, with room on both sides. Year 0000 and 9999 are not dates a health record holds.
 */
export const DATE_MIN_YEAR = 1850;
export const DATE_MAX_YEAR = 2150;

// eslint-disable-next-line no-control-regex -- matching NUL is the point
const NUL = /\u0000/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the text has no NUL and no unpaired surrogate. */
export function isSafeText(value: string): boolean {
  return !NUL.test(value) && !LONE_SURROGATE.test(value);
}

/** True when a YYYY-MM-DD (or longer ISO) value's year lies in DATE_MIN_YEAR..DATE_MAX_YEAR. */
export function isYearInRange(value: string): boolean {
  const year = Number(value.slice(0, 4));
  return /^\d{4}/.test(value) && year >= DATE_MIN_YEAR && year <= DATE_MAX_YEAR;
}

/**
 * The dotted path of the first string (object key or value, at any depth) that breaks the text rule, or null.
 * `prefix` names the part of the request (params, query, body).
 */
export function findUnsafeText(value: unknown, prefix = ''): string | null {
  if (typeof value === 'string') return isSafeText(value) ? null : prefix;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], join(prefix, String(i)));
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (!isSafeText(key)) return join(prefix, '(key)');
      const found = findUnsafeText(child, join(prefix, key));
      if (found !== null) return found;
    }
  }
  return null;
}

const join = (prefix: string, key: string): string => (prefix ? `${prefix}.${key}` : key);
