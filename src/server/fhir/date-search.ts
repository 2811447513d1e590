// FHIR date search (R4 search.html#date; issue 26 item 4): a date, dateTime or instant, written to any precision
// (YYYY, YYYY-MM, YYYY-MM-DD, with a time), stands for the range it covers; a search value with a prefix (eq, ne, lt,
// gt, le, ge, sa, eb) compares that range with the range of the resource's date or Period. A value without a zone is
// Namibian local time (UTC+2, no daylight saving), as the record's dates are.
import { unsupported } from './unsupported';

/** A half-open range of instants [start, end), in milliseconds. */
export interface DateRange {
  start: number;
  end: number;
}

export const DATE_PREFIXES = ['eq', 'ne', 'lt', 'gt', 'le', 'ge', 'sa', 'eb'] as const;
type Prefix = (typeof DATE_PREFIXES)[number];

const LOCAL_OFFSET_MS = 2 * 3_600_000;
const DATE_TIME = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

/** Milliseconds of a UTC calendar time (years below 100 kept as written). */
function utc(year: number, month: number, day: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, day);
  d.setUTCHours(h, mi, s, ms);
  return d.getTime();
}

/** The range a FHIR date, dateTime or instant stands for; null when it is not one. */
export function rangeOf(text: string): DateRange | null {
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y);
  const month = mo === undefined ? 0 : Number(mo) - 1;
  const day = d === undefined ? 1 : Number(d);
  if (month < 0 || month > 11 || day < 1 || new Date(utc(year, month, day)).getUTCDate() !== day) return null;
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59)) return null;
  const offset =
    zone === undefined
      ? LOCAL_OFFSET_MS
      : zone === 'Z'
        ? 0
        : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
  const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));
  const start = utc(year, month, day, Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0), ms) - offset;
  let end: number;
  if (mo === undefined) end = utc(year + 1, 0, 1) - offset;
  else if (d === undefined) end = utc(year, month + 1, 1) - offset;
  else if (h === undefined) end = utc(year, month, day + 1) - offset;
  else if (s === undefined) end = start + 60_000;
  else if (frac === undefined) end = start + 1000;
  else end = start + 1;
  return { start, end };
}

/** The range of a resource's date element: a date/dateTime/instant string or a Period (an open end is unbounded). */
export function targetRange(value: unknown): DateRange | null {
  if (typeof value === 'string') return rangeOf(value);
  if (value && typeof value === 'object') {
    const { start, end } = value as { start?: unknown; end?: unknown };
    const s = typeof start === 'string' ? rangeOf(start) : null;
    const e = typeof end === 'string' ? rangeOf(end) : null;
    if (!s && !e) return null;
    return { start: s ? s.start : -Infinity, end: e ? e.end : Infinity };
  }
  return null;
}

const TESTS: Record<Prefix, (t: DateRange, p: DateRange) => boolean> = {
  eq: (t, p) => t.start >= p.start && t.end <= p.end,
  ne: (t, p) => !(t.start >= p.start && t.end <= p.end),
  gt: (t, p) => t.end > p.end,
  lt: (t, p) => t.start < p.start,
  ge: (t, p) => t.end > p.start,
  le: (t, p) => t.start < p.end,
  sa: (t, p) => t.start >= p.end,
  eb: (t, p) => t.end <= p.start,
};

/**
 * A date search value (`ge2025-01`, `2024`, `lt2025-03-01T08:00:00+02:00`) as a test of a resource's date range;
 * 400 naming the parameter for a malformed value or another prefix.
 */
export function dateTest(param: string, value: string): (target: DateRange | null) => boolean {
  const prefixed = /^[a-z]{2}/.test(value);
  const prefix = (prefixed ? value.slice(0, 2) : 'eq') as Prefix;
  const range = rangeOf(prefixed ? value.slice(2) : value);
  if (!DATE_PREFIXES.includes(prefix) || !range)
    throw unsupported(
      `Unsupported date: ${param}=${value} (YYYY, YYYY-MM, YYYY-MM-DD or a dateTime, prefix ${DATE_PREFIXES.join(', ')})`,
      param,
    );
  const test = TESTS[prefix];
  return (target) => target !== null && test(target, range);
}
