// Canonical JSON for the audit hash chain: object keys sorted (UTF-16 code-unit order), no whitespace,
// strings and numbers exactly as JSON.stringify writes them. The writer and the verifier both use it.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

// Lone UTF-16 surrogates and NUL cannot be stored by PostgreSQL as sent (the driver would replace or
// reject them), so the stored value would differ from the hashed one. Replace them before hashing.
// eslint-disable-next-line no-control-regex -- NUL is exactly what must be matched
const UNSTORABLE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\u0000/g;

export function storableText(value: string): string {
  return value.replace(UNSTORABLE, '\ufffd');
}

/**
 * The JSON value that a jsonb column gives back for `value`: undefined and functions dropped, Dates as
 * ISO strings, non-finite numbers as null, unstorable characters replaced. Undefined becomes null.
 */
export function toJsonValue(value: unknown): JsonValue {
  if (value === undefined) return null;
  const plain = plainJson(value, 0);
  if (plain !== NOT_PLAIN) return plain;
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? storableText(v) : v));
  return text === undefined ? null : (JSON.parse(text) as JsonValue);
}

const NOT_PLAIN: unique symbol = Symbol('not plain JSON data');
const PLAIN_DEPTH = 16;

/**
 * toJsonValue of plain data (strings, booleans, finite numbers, null, arrays and plain objects of them) without
 * JSON.stringify with a replacer and JSON.parse, which cost more than the rest of a search's audit row (issue 29);
 * NOT_PLAIN for anything else (Dates, toJSON, undefined or non-finite values, deep nesting): the general path.
 */
function plainJson(value: unknown, depth: number): JsonValue | typeof NOT_PLAIN {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'string') return storableText(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value + 0 : NOT_PLAIN; // -0 is written as 0
  if (typeof value !== 'object' || depth >= PLAIN_DEPTH) return NOT_PLAIN;
  if (Array.isArray(value)) {
    const out: JsonValue[] = [];
    for (const item of value) {
      const v = plainJson(item, depth + 1);
      if (v === NOT_PLAIN) return NOT_PLAIN;
      out.push(v);
    }
    return out;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const out: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value)) {
    // As JSON.parse gives it back, an own key named __proto__ is data: left to the general path.
    if (key === '__proto__') return NOT_PLAIN;
    const v = plainJson((value as Record<string, unknown>)[key], depth + 1);
    if (v === NOT_PLAIN) return NOT_PLAIN;
    out[key] = v;
  }
  return out;
}

export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(',')}}`;
}

/**
 * Canonical JSON of a flat object with some values left out ("holes") for the database to fill in:
 * the text around the holes and the hole keys in the order they appear. Joining
 * segments[0], value(holes[0]), segments[1], ... gives canonicalJson of the whole object.
 */
export function canonicalSegments(fields: Record<string, JsonValue>, holeKeys: readonly string[]): { segments: string[]; holes: string[] } {
  const plan = segmentPlan(Object.keys(fields), holeKeys);
  return { segments: fillSegments(plan, fields), holes: plan.holes };
}

/**
 * Where each key's value goes in canonicalSegments' text, for objects that always have the same keys: worked out
 * once (the sort and the key texts), then filled per object by fillSegments. Each segment is a list of literal
 * texts and keys whose canonical JSON goes there.
 */
export interface SegmentPlan {
  segments: (string | { key: string })[][];
  holes: string[];
}

export function segmentPlan(fieldKeys: readonly string[], holeKeys: readonly string[]): SegmentPlan {
  const keys = [...fieldKeys, ...holeKeys].sort();
  const segments: (string | { key: string })[][] = [];
  const holes: string[] = [];
  let current: (string | { key: string })[] = [];
  const literal = (text: string): void => {
    const last = current.length - 1;
    if (last >= 0 && typeof current[last] === 'string') current[last] += text;
    else current.push(text);
  };
  literal('{');
  keys.forEach((key, i) => {
    literal(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`);
    if (holeKeys.includes(key)) {
      segments.push(current);
      holes.push(key);
      current = [];
    } else current.push({ key });
  });
  literal('}');
  segments.push(current);
  return { segments, holes };
}

/** The segments' texts of `fields` under `plan` (fields must have the plan's keys). */
export function fillSegments(plan: SegmentPlan, fields: Record<string, JsonValue>): string[] {
  return plan.segments.map((parts) => {
    let text = '';
    for (const part of parts) text += typeof part === 'string' ? part : canonicalJson(fields[part.key]!);
    return text;
  });
}
