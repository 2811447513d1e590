// The candidate lookup's date condition (datesMayAgree) against the scoring's date comparison (compareDates): the
// registry-wide run lets the database drop candidates whose dates of birth disagree entirely, so the condition must be
// true for every pair compareDates does not call 'different' (a dropped pair would be a duplicate never proposed), and
// it should drop most of those it does. Run in the real database, over every kind of slip and around month and year
// ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { textArray } from '../patients/search.repository';
import { datesMayAgree } from './match.repository';
import { compareDates, DEFAULT_THRESHOLDS, differentDatesCanReach } from './match-scoring';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.dispose();
});

const iso = (d: Date) => d.toISOString().slice(0, 10);
const shift = (date: string, days: number) => iso(new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000));
const valid = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return /^(18|19|20)\d{2}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(d.getTime()) && iso(d) === s;
};

/** Dates near each base: every one-digit change, swaps, a year either way, days around it, and unrelated ones. */
function pairsAround(base: string): [string, string][] {
  const out = new Set<string>();
  for (let i = 0; i < base.length; i++) {
    if (base[i] === '-') continue;
    for (let digit = 0; digit <= 9; digit++) out.add(base.slice(0, i) + String(digit) + base.slice(i + 1));
  }
  const digits = [...base].map((c, i) => (c === '-' ? -1 : i)).filter((i) => i >= 0);
  for (const i of digits) {
    const j = i + 1;
    if (base[j] === undefined || base[j] === '-') continue;
    out.add(base.slice(0, i) + base[j] + base[i] + base.slice(j + 1));
  }
  const [y, m, d] = base.split('-');
  out.add(`${y}-${d}-${m}`);
  for (const dy of [-11, -10, -2, -1, 1, 2, 9, 10]) out.add(`${Number(y) + dy}-${m}-${d}`);
  for (const days of [-400, -40, -32, -31, -30, -12, -11, -10, -2, -1, 1, 2, 10, 11, 12, 30, 31, 32, 40, 365, 366])
    out.add(shift(base, days));
  // What the blocking keys bring most: the same year (both names' codes), the same year and month (the surname's code).
  for (let i = 1; i <= 28; i++) out.add(`${y}-${String(((i * 5) % 12) + 1).padStart(2, '0')}-${String(i).padStart(2, '0')}`);
  for (let i = 1; i <= 28; i++) out.add(`${y}-${m}-${String(i).padStart(2, '0')}`);
  return [...out].filter(valid).map((other) => [base, other]);
}

describe('the date condition of the candidate lookup', () => {
  it('with the default thresholds a pair whose dates disagree entirely cannot reach "possible"', () => {
    expect(differentDatesCanReach(DEFAULT_THRESHOLDS.possible)).toBe(false);
    expect(differentDatesCanReach(10)).toBe(true);
  });

  it('is true for every pair compareDates does not call different, and false for most it does', async () => {
    const bases = [
      '1984-03-09',
      '1990-12-31',
      '2001-01-01',
      '1979-11-12',
      '2000-02-29',
      '1968-10-20',
      '2019-07-17',
      '1955-05-05',
      '1987-01-12',
      '1978-10-21',
    ];
    const pairs = bases.flatMap(pairsAround);
    const as = pairs.map(([a]) => a);
    const bs = pairs.map(([, b]) => b);
    const result = await tdb.handle.db.execute(
      sql`SELECT ${datesMayAgree(sql`x.a::date`, sql`x.b::date`)} AS may FROM unnest(${textArray(as)}, ${textArray(bs)}) WITH ORDINALITY AS x(a, b, n) ORDER BY x.n`,
    );
    const may = (result as unknown as { rows: { may: boolean }[] }).rows.map((r) => r.may);
    expect(may).toHaveLength(pairs.length);
    let different = 0;
    let dropped = 0;
    pairs.forEach(([a, b], i) => {
      const agreement = compareDates(a, b);
      if (agreement !== 'different') expect({ a, b, agreement, may: may[i] }).toEqual({ a, b, agreement, may: true });
      else {
        different++;
        if (!may[i]) dropped++;
      }
    });
    expect(pairs.length).toBeGreaterThan(600);
    expect(dropped / different).toBeGreaterThan(0.5);
    const nulls = await tdb.handle.db.execute(sql`SELECT ${datesMayAgree(sql`NULL::date`, sql`'1984-03-09'::date`)} AS may`);
    expect((nulls as unknown as { rows: { may: boolean }[] }).rows[0]!.may).toBe(true);
  });
});
