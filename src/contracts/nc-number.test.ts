import { describe, expect, it } from 'vitest';
import { generateNcNumber, isValidNcNumber, luhnCheckDigit, NC_NUMBER_MESSAGES, ncNumberProblem } from './nc-number';

/** A small deterministic generator (mulberry32) so failures can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

describe('NC number', () => {
  it('computes the Luhn check digit of known numbers', () => {
    expect(luhnCheckDigit('7992739871')).toBe(3); // the textbook example 79927398713
    expect(luhnCheckDigit('1000000000')).toBe(9);
    expect(luhnCheckDigit('0000000000')).toBe(0);
  });

  it('generates 11 digits, first digit 1-9, with a valid check digit', () => {
    const random = seeded(42);
    for (let i = 0; i < 2000; i++) {
      const nc = generateNcNumber(random);
      expect(nc).toMatch(/^[1-9][0-9]{10}$/);
      expect(isValidNcNumber(nc)).toBe(true);
    }
  });

  it('uses the extremes of the random source without leaving the digit ranges', () => {
    expect(generateNcNumber(() => 0)).toBe('10000000009');
    expect(generateNcNumber(() => 0.999999999)).toMatch(/^9{10}[0-9]$/);
    expect(isValidNcNumber(generateNcNumber(() => 0.999999999))).toBe(true);
  });

  it('is random by default: no two of 1000 numbers are equal and digits spread out', () => {
    const seen = new Set(Array.from({ length: 1000 }, () => generateNcNumber()));
    expect(seen.size).toBe(1000);
    const firstDigits = new Set([...seen].map((n) => n[0]));
    expect(firstDigits.size).toBe(9);
  });

  it('names the first problem with the SPEC messages as keys', () => {
    expect(ncNumberProblem('1234567890')).toBe(NC_NUMBER_MESSAGES.length);
    expect(ncNumberProblem('123456789012')).toBe(NC_NUMBER_MESSAGES.length);
    expect(ncNumberProblem('')).toBe('validation:ncNumberLength');
    expect(ncNumberProblem('1234567890a')).toBe('validation:ncNumberDigits');
    expect(ncNumberProblem("1' OR 1=1--")).toBe('validation:ncNumberDigits');
    expect(ncNumberProblem('７９９２７３９８７１３')).toBe('validation:ncNumberDigits'); // full-width digits
    expect(ncNumberProblem('79927398713')).toBeNull();
    expect(ncNumberProblem('79927398710')).toBe('validation:ncNumberCheckDigit');
  });

  it('catches every single-digit typo and every adjacent swap of distinct digits (except 0/9)', () => {
    const nc = generateNcNumber(seeded(7));
    for (let i = 0; i < nc.length; i++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === nc[i]) continue;
        expect(isValidNcNumber(nc.slice(0, i) + d + nc.slice(i + 1))).toBe(false);
      }
    }
    for (let i = 0; i + 1 < nc.length; i++) {
      const a = nc[i]!;
      const b = nc[i + 1]!;
      if (a === b || (a + b).match(/^(09|90)$/)) continue;
      expect(isValidNcNumber(nc.slice(0, i) + b + a + nc.slice(i + 2))).toBe(false);
    }
  });
});
