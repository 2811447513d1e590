import { describe, expect, it } from 'vitest';
import { auditRowCanonical, hashedFields, type AuditChainRow } from './audit-hash';
import { canonicalJson, canonicalSegments, toJsonValue } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: 'é' }], c: true } })).toBe('{"a":{"c":true,"d":[3,{"y":"é","z":null}]},"b":1}');
  });

  it('writes strings and numbers exactly as JSON.stringify does', () => {
    expect(canonicalJson(['a"b\\c\n', 1e21, 0.1, -0, 1e-7])).toBe(JSON.stringify(['a"b\\c\n', 1e21, 0.1, -0, 1e-7]));
  });

  it('leaves holes for the database between segments, in key order', () => {
    const { segments, holes } = canonicalSegments({ b: 'x', z: 1 }, ['id', 'a']);
    expect(holes).toEqual(['a', 'id']);
    expect(segments[0] + '7' + segments[1] + '9' + segments[2]).toBe(canonicalJson({ b: 'x', z: 1, id: 9, a: 7 }));
  });

  it('normalizes values as a jsonb column gives them back', () => {
    expect(toJsonValue({ d: new Date('2025-01-01T00:00:00Z'), u: undefined, n: NaN, s: 'a\u0000b' })).toEqual({
      d: '2025-01-01T00:00:00.000Z',
      n: null,
      s: 'a\ufffdb',
    });
    expect(toJsonValue(undefined)).toBeNull();
  });

  it('gives plain data back exactly as the round trip through JSON text does', () => {
    // What toJsonValue means: the value JSON.stringify (unstorable characters replaced) and JSON.parse give back.
    const roundTrip = (v: unknown): unknown => {
      const text = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'string' ? x.split('\u0000').join('\ufffd') : x));
      return text === undefined ? null : JSON.parse(text);
    };
    const values: unknown[] = [
      null,
      true,
      0,
      -0,
      1.5,
      'text',
      'nul\u0000',
      [],
      [1, 'a', null, [false]],
      { method: 'id-number', idNumber: '85010112345' },
      { nested: { list: [{ a: 1 }, { b: [2, 3] }] }, '2': 'numeric key first', a: 'then a' },
      { skipped: undefined, kept: 1 },
      [undefined, Infinity, () => 1],
      { when: new Date('2025-01-01T00:00:00Z'), json: { toJSON: () => 'own' } },
      JSON.parse('{"__proto__": {"polluted": true}, "x": 1}'),
      Object.assign(Object.create(null), { bare: 'object' }),
      Object.fromEntries([['\ud800lone', 'surrogate key']]),
    ];
    for (const v of values) {
      const got = toJsonValue(v);
      expect(got).toStrictEqual(roundTrip(v));
      expect(Object.is(got, -0)).toBe(false);
    }
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(toJsonValue(JSON.parse('{"__proto__": {"p": 1}}')) as object)).toEqual(['__proto__']);
  });
});

describe('auditRowCanonical', () => {
  it('is canonicalJson of every hashed field of the row', () => {
    const row: AuditChainRow = {
      id: 12,
      chain: 3,
      chainSeq: 4,
      timestamp: '2025-01-01T00:00:00.000000Z',
      userId: 'u',
      userName: 'N',
      action: 'VIEW',
      resourceType: 'PATIENT',
      resourceId: '5',
      patientId: 5,
      oldValues: null,
      newValues: { b: 2, a: [1] },
      ipAddress: '::1',
      userAgent: null,
      sessionId: null,
      facility: 'F',
      complianceFlags: { type: 'CONSENT' },
    };
    const { id, chain, chainSeq, timestamp } = row;
    expect(auditRowCanonical(row)).toBe(canonicalJson({ ...hashedFields(row), id, chain, chainSeq, timestamp }));
  });
});
