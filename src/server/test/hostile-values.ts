// Hostile request values for the property test over every route (issue 10 item 7): generated with fast-check
// from a fixed seed, so a failure repeats. Each value says whether the server must refuse it (4xx) or only must
// not fail (no 5xx, no change).
import fc from 'fast-check';

export interface HostileValue {
  label: string;
  value: unknown;
  /** True when any answer but a 4xx is wrong (text the rule forbids, a date outside the real range). */
  mustRefuse: boolean;
}

const SEED = 20261123;
const around = (inner: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(fc.string({ maxLength: 6 }), inner, fc.string({ maxLength: 6 })).map(([a, x, b]) => `${a}${x}${b}`);

/** Text with a NUL somewhere. */
const nulText = around(fc.constant('\u0000'));
/** Text with a lone high or low surrogate (fc.string's default unit is ASCII, so the neighbours cannot pair it). */
const loneSurrogate = around(fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)));
const year = (y: number): string => String(y).padStart(4, '0');
/** A well-formed date whose year no health record holds. */
const farDate = fc
  .oneof(fc.constantFrom(0, 9999), fc.integer({ min: 0, max: 1849 }), fc.integer({ min: 2151, max: 9999 }))
  .map((y) => `${year(y)}-06-15`);
/** The wrong JSON type for any declared field. */
const wrongType = fc.oneof(
  fc.constant([]),
  fc.constant({ nested: '\u0000' }),
  fc.double({ noNaN: true }),
  fc.constant(-1e308),
  fc.constant(Number.MAX_SAFE_INTEGER),
);
/** Strings that are allowed text but odd for the field: long, SQL-ish, path-ish, numeric overflow. */
const oddText = fc.oneof(
  fc.constantFrom("' OR 1=1 --", '../../../etc/passwd', '99999999999999999999999', '-1', '1e400', '%00', '\uFFFF', ' '),
  fc.string({ minLength: 300, maxLength: 400 }),
);

const sample = <T>(arb: fc.Arbitrary<T>, n: number, offset: number): T[] => fc.sample(arb, { seed: SEED + offset, numRuns: n });

/**
 * Values for a string field of a JSON body or a query parameter. In a query a lone surrogate travels as the bytes
 * %ED%A0%80, which the URL decoder may turn into U+FFFD (allowed text), so only a JSON body must refuse it.
 */
export function hostileText(offset: number, isDate: boolean, inUrl = false): HostileValue[] {
  return [
    ...sample(nulText, 2, offset).map((value) => ({ label: 'NUL', value, mustRefuse: true })),
    ...sample(loneSurrogate, 2, offset + 1).map((value) => ({ label: 'lone surrogate', value, mustRefuse: !inUrl })),
    ...sample(farDate, 2, offset + 2).map((value) => ({ label: 'far date', value, mustRefuse: isDate })),
    ...sample(oddText, 2, offset + 3).map((value) => ({ label: 'odd text', value, mustRefuse: false })),
  ];
}

/** Values of the wrong JSON type (body fields only; a URL carries only text). */
export function hostileTypes(offset: number): HostileValue[] {
  return sample(wrongType, 2, offset + 4).map((value) => ({ label: 'wrong type', value, mustRefuse: true }));
}

/**
 * Values for a path parameter, already percent-encoded. A URL cannot carry a lone surrogate; its UTF-8-like bytes
 * (%ED%A0%80) are the closest a client can send.
 */
export function hostilePathSegments(offset: number): HostileValue[] {
  const enc = (s: string): string => encodeURIComponent(s);
  return [
    ...sample(nulText, 2, offset).map((v) => ({ label: 'NUL', value: enc(v), mustRefuse: true })),
    { label: 'surrogate bytes', value: 'a%ED%A0%80b', mustRefuse: false },
    ...sample(farDate, 1, offset + 2).map((v) => ({ label: 'far date', value: v, mustRefuse: false })),
    ...['-1', '0', '99999999999999999999', '1e400', '..%2F..%2Fetc', '%20'].map((value) => ({ label: 'odd id', value, mustRefuse: false })),
  ];
}

/** Percent-encodes a query value; a lone surrogate becomes its three WTF-8 bytes instead of throwing. */
export function encodeQueryValue(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}
