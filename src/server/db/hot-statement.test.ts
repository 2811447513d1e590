// Hot statements (db/client hotStatement, issue 29): the text rendered once with its parameters compacted (one per
// slot, constant text inline), the values given in parts. Run on the test database (PGlite, or PostgreSQL when
// DATABASE_URL is set): the compacted text must mean what drizzle's rendering meant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Param, Placeholder, sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { hotStatement, slotValues } from './client';
import { compactParams, textLiteral } from './compact-params';

describe('compactParams', () => {
  it('gives each slot one parameter and writes constant text as a literal', () => {
    const who = new Placeholder('who');
    const encoder = { mapToDriverValue: (v: unknown) => v } as unknown as ConstructorParameters<typeof Param>[1];
    const encoded = new Param(new Placeholder('who'), encoder);
    const compacted = compactParams({ sql: 'SELECT $1, $2, $3 || $4, $5, $6', params: [who, "it's", who, 7, encoded, encoded] });
    expect(compacted.sql).toBe(`SELECT $1, E'it''s', $1 || $2, $3, $3`);
    expect(compacted.params).toEqual([who, 7, encoded]);
  });

  it('leaves a statement alone when its dollar signs are not exactly its parameters in order', () => {
    const odd = { sql: "SELECT $2, $1, '$3'", params: ['a', 'b'] };
    expect(compactParams(odd)).toBe(odd);
  });

  it('keeps as parameters the constants no literal can hold', () => {
    expect(compactParams({ sql: 'SELECT $1', params: ['nul\u0000'] }).params).toEqual(['nul\u0000']);
    expect(textLiteral(`back\\slash and 'quote'`)).toBe(`E'back\\\\slash and ''quote'''`);
  });
});

describe('hotStatement', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  }, 60_000);
  afterAll(async () => t?.dispose());

  interface Slots {
    n: number;
    word: string;
  }
  const awkward = `quote ' backslash \\ dollar $1 percent %`;
  const statement = hotStatement<Slots, { a: number; b: number; same: boolean; word: string; constant: string }>(
    'nhr_test_hot_statement',
    (slot) =>
      sql`SELECT ${slot.n}::int AS a, ${slot.n}::int + 1 AS b, ${slot.word}::text = ${slot.word}::text AS same,
                 ${slot.word}::text AS word, ${awkward}::text AS constant`,
  );

  it('answers the same from values in parts, with each slot bound once and constants inline', async () => {
    for (const n of [1, 2]) {
      const [row] = await statement(t.handle.db, slotValues({ n }, { word: `w${n}` }));
      expect(row).toEqual({ a: n, b: n + 1, same: true, word: `w${n}`, constant: awkward });
    }
  });

  it('takes a value from the last part that gives it, as a spread would, and refuses a missing one', async () => {
    const [row] = await statement(t.handle.db, slotValues({ n: 1, word: 'first' }, { word: 'last' }));
    expect(row!.word).toBe('last');
    await expect(statement(t.handle.db, slotValues({ n: 1 }) as never)).rejects.toThrow('No value for placeholder "word"');
  });
});
