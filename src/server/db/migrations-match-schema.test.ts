// The migrations and schema.ts describe the same database (issue 15 item 6): a fresh database migrated from the
// SQL files has exactly the tables of schema.ts, each with the same columns (name, type, nullability, default or
// none) and the indexes schema.ts names. A column added to schema.ts without a migration, or a migration that
// changes a table schema.ts does not know about, fails here. The month partitions of audit_logs (migration 0054) are
// audit_logs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { queryRows } from '../test/sql';
import * as schema from './schema';
import { RECORD_TABLES } from '../modules/records/kinds';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.dispose();
});

const tables: PgTable[] = [...(Object.values(schema) as unknown[]).filter((x): x is PgTable => is(x, PgTable)), ...RECORD_TABLES];

/** Drizzle's SQL type as PostgreSQL's format_type writes it. */
function normalize(type: string): string {
  return type
    .replace(/^serial$/, 'integer')
    .replace(/^bigserial$/, 'bigint')
    .replace(/^smallserial$/, 'smallint')
    .replace(/^varchar/, 'character varying')
    .replace(/^timestamp with time zone$|^timestamptz$/, 'timestamp with time zone')
    .replace(/^timestamp$/, 'timestamp without time zone')
    .replace(/^time$/, 'time without time zone')
    .replace(/, /g, ',');
}

interface DbColumn {
  table: string;
  column: string;
  type: string;
  not_null: boolean;
  has_default: boolean;
  generated: boolean;
}

describe('the migrations and schema.ts', () => {
  it('have the same tables', async () => {
    const inDb = await queryRows<{ name: string }>(
      t.handle.db,
      sql`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
    );
    expect(inDb.map((r) => r.name)).toEqual(tables.map((x) => getTableConfig(x).name).sort());
  });

  it('have the same columns: name, type, nullability, whether there is a default, and generated columns', async () => {
    const inDb = await queryRows<DbColumn>(
      t.handle.db,
      sql`SELECT c.relname AS "table", a.attname AS "column", format_type(a.atttypid, a.atttypmod) AS type,
                 a.attnotnull AS not_null, a.atthasdef AND a.attgenerated = '' AS has_default, a.attgenerated <> '' AS generated
            FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND a.attnum > 0 AND NOT a.attisdropped
           ORDER BY 1, 2`,
    );
    const fromSchema: DbColumn[] = tables
      .flatMap((x) => {
        const config = getTableConfig(x);
        return config.columns.map((c) => ({
          table: config.name,
          column: c.name,
          type: normalize(c.getSQLType()),
          not_null: c.notNull || c.primary,
          has_default: (c.hasDefault && !c.generated) || /serial$/.test(c.getSQLType()),
          generated: Boolean(c.generated),
        }));
      })
      .sort((a, b) => (a.table === b.table ? (a.column < b.column ? -1 : 1) : a.table < b.table ? -1 : 1));
    expect(inDb).toEqual(fromSchema);
  });

  it('create every index schema.ts names', async () => {
    const inDb = new Set(
      (await queryRows<{ name: string }>(t.handle.db, sql`SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public'`)).map(
        (r) => r.name,
      ),
    );
    const named = tables.flatMap((x) => getTableConfig(x).indexes.map((i) => i.config.name)).filter((n): n is string => Boolean(n));
    expect(named.filter((n) => !inDb.has(n))).toEqual([]);
  });
});
