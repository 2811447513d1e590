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
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? storableText(v) : v));
  return text === undefined ? null : (JSON.parse(text) as JsonValue);
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
  const keys = [...Object.keys(fields), ...holeKeys].sort();
  const segments: string[] = [];
  const holes: string[] = [];
  let current = '{';
  keys.forEach((key, i) => {
    current += `${i > 0 ? ',' : ''}${JSON.stringify(key)}:`;
    if (holeKeys.includes(key)) {
      segments.push(current);
      holes.push(key);
      current = '';
    } else {
      current += canonicalJson(fields[key]!);
    }
  });
  segments.push(`${current}}`);
  return { segments, holes };
}
