// Two drivers behind one interface: embedded PGlite (default, data in DATA_DIR) or a PostgreSQL server (DATABASE_URL).
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, NodePgSession } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { DrizzleQueryError, Param, Placeholder, sql, type SQL } from 'drizzle-orm';
import { compactParams } from './compact-params';
import { lockDataDir } from './data-dir-lock';
import { parseMultiHostUrl, primaryFollowingPool } from './primary-pool';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database itself: repositories accept either. */
export type DbOrTx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the committed SQL migrations; safe to call from several processes at once. */
  migrate(): Promise<void>;
  /** Embedded database only: its data directory as an uncompressed tarball (see `loadDataDir`). */
  dumpDataDir?(): Promise<Uint8Array>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A PostgreSQL connection string; when absent the embedded database is used. */
  databaseUrl?: string | undefined;
  /** Folder for the embedded database; `memory://` keeps it in memory (tests). */
  dataDir?: string;
  poolSize?: number;
  /** Embedded database only: start from this data directory (a tarball from `dumpDataDir`) instead of an empty one. */
  loadDataDir?: Blob | undefined;
  /**
   * PostgreSQL only: cancel any statement of this pool that runs longer (lock waits included); 0 or absent: no
   * limit. The server sets it for request work; migrations run without it. PGlite (one embedded process, no
   * timers in its single backend) has none.
   */
  statementTimeoutMs?: number;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
const MIGRATION_LOCK = 727_001; // pg_advisory_lock key: one migrator at a time across app instances

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10, options.statementTimeoutMs ?? 0);
  return openPglite(options.dataDir ?? 'memory://', options.loadDataDir);
}

async function openPglite(dataDir: string, loadDataDir: Blob | undefined): Promise<DatabaseHandle> {
  let release = (): void => undefined;
  if (!dataDir.startsWith('memory://')) {
    mkdirSync(dataDir, { recursive: true });
    release = lockDataDir(dataDir); // throws DataDirInUseError while another process has it open
  }
  let client: PGlite;
  try {
    client = await PGlite.create(dataDir, {
      extensions: { pg_trgm, fuzzystrmatch, unaccent },
      ...(loadDataDir ? { loadDataDir } : {}),
    });
  } catch (err) {
    release();
    throw err;
  }
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    dumpDataDir: async () => new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer()),
    close: async () => {
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}

/** How long an idle pooled connection stays open. */
const IDLE_CONNECTION_MS = 5 * 60_000;

async function openPostgres(url: string, max: number, statementTimeoutMs: number): Promise<DatabaseHandle> {
  const options: pg.PoolConfig = {
    max,
    // A connection's backend compiles the PL/pgSQL functions, plans the hot statements and fills its catalog caches on
    // first use (the first bulk-search check of a backend takes ~7 ms, later ones under 1): keep idle connections for
    // minutes, not pg's 10 s, so that every lull in a clinic's traffic does not end in cold connections (decision 060).
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    // A query is written to the connection at once, not after the one before it is answered: a transaction sends its
    // BEGIN and COMMIT together with its first and last statements (pipelined-transaction.ts; issue 29).
    pipeline: true,
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
  };
  // Several hosts (a primary and its standby, libpq's form): every connection goes to the one that takes writes.
  const multiHost = parseMultiHostUrl(url);
  const pool = multiHost ? primaryFollowingPool(multiHost, options) : new pg.Pool({ connectionString: url, ...options });
  // Dates stay as YYYY-MM-DD strings; no time-zone shifting of calendar dates.
  pool.on('error', () => undefined); // an idle client's error is reported on its next use
  const db = drizzlePg(pool, { schema });
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    async migrate() {
      const client = await pool.connect();
      try {
        // An index build on millions of rows may take minutes: no request statement timeout while migrating.
        await client.query('SET statement_timeout = 0');
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
        await client.query('RESET statement_timeout').catch(() => undefined);
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * Runs a hot query as a named prepared statement (issue 11): on node-postgres each connection parses and plans
 * it once and then only binds and executes; PGlite (one in-process backend) runs it as usual. The name must
 * always go with the same SQL text: build `query` from constant text and bound parameters only.
 */
export async function preparedRows<T>(db: DbOrTx, name: string, query: SQL): Promise<T[]> {
  const internals = driverOf(db);
  const result = await internals.session.prepareQuery(internals.dialect.sqlToQuery(query), undefined, name, false).execute();
  return (result as { rows: T[] }).rows;
}

/** A query as the driver runs it: its text and its parameters (drizzle placeholders among them in a hot statement). */
interface RenderedQuery {
  sql: string;
  params: unknown[];
}

// drizzle's raw `execute` cannot name a statement; its session's prepareQuery can (public at run time, typed internal).
const driverOf = (db: DbOrTx) =>
  db as unknown as {
    dialect: { sqlToQuery(q: SQL): RenderedQuery };
    session: {
      prepareQuery(
        q: RenderedQuery,
        fields: undefined,
        name: string,
        arrayMode: boolean,
      ): { execute(values?: Record<string, unknown>): Promise<unknown> };
    };
  };

/** The per-request values of a hot statement, each as the SQL placeholder its text is built with. */
export type Slots<V> = { readonly [K in keyof V]-?: SQL };

/** Slots bound to one request's values: the same SQL as the hot statement's, with the values inline. */
export const bindSlots = <V extends object>(values: V): Slots<V> =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, sql`${value}`])) as Slots<V>;

/**
 * The type parsers of drizzle's node-postgres driver: dates, timestamps and intervals (and their arrays) stay
 * PostgreSQL's text, everything else as pg parses it. A hot statement run straight on pg answers as drizzle would.
 */
const TEXT_TYPES = new Set<number>([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
]);
const asText = (value: string): string => value;
/** Each column type's text parser, looked up once: node-postgres asks for every column of every result. */
const TEXT_PARSERS = new Map<number, unknown>();
const DRIZZLE_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format === 'binary') return pg.types.getTypeParser(oid, format);
    let parser = TEXT_PARSERS.get(oid);
    if (parser === undefined) TEXT_PARSERS.set(oid, (parser = TEXT_TYPES.has(oid) ? asText : pg.types.getTypeParser(oid, 'text')));
    return parser;
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** What node-postgres's session runs a query on: the pool, or the transaction's client. */
interface PgQueryable {
  query(config: pg.QueryConfig, values: unknown[]): Promise<pg.QueryResult>;
}

declare const SLOT_VALUES: unique symbol;

/** The values of a hot statement's slots, in the parts the caller has them in (slotValues). */
export interface SlotValues<V> {
  readonly parts: readonly object[];
  /** Only for the type: the values the parts hold together. */
  readonly [SLOT_VALUES]?: V;
}

type Merged<P extends readonly object[]> = P extends readonly [infer H, ...infer R extends readonly object[]] ? H & Merged<R> : unknown;

/**
 * A hot statement's values as the parts the caller has them in (the work's, the audit row's, the gate's), not merged
 * into one object: an object literal spread from several objects of about forty keys in all made V8 build new hidden
 * classes on every request (57 µs each time, and a major garbage collection every few seconds under load: issue 29).
 * A later part's value wins, as in a spread.
 */
export const slotValues = <P extends readonly object[]>(...parts: P): SlotValues<Merged<P>> => ({ parts });

/** The value of `slot`: from the last part that holds it, as a spread of the parts would give it. */
function valueOf(parts: readonly object[], slot: string): unknown {
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i] as Record<string, unknown>;
    if (slot in part) return part[slot];
  }
  throw new Error(`No value for placeholder "${slot}" was provided`);
}

/** A parameter of the rendered text: a slot's name (and its column's encoder), or a constant. */
type HotParam = { slot: string; encode?: (value: unknown) => unknown } | { constant: unknown };

/**
 * A hot statement: runs with one request's values. On node-postgres it writes its query to the connection before it
 * first waits (pipelined-transaction.ts sends COMMIT right behind it).
 */
export type HotStatement<V extends object, T> = (db: DbOrTx, values: SlotValues<V>) => Promise<T[]>;

/**
 * A hot statement whose text is built and rendered once (issue 23's budgets): `build` gets a placeholder for every
 * per-request value (`slot.patientId`) and must use them for everything that differs between requests; each call
 * then only fills in the values (slotValues) and runs the named prepared statement. Building a large statement with
 * drizzle on every request cost a millisecond of CPU, as much as running it. On node-postgres the statement goes
 * straight to the pool (or the transaction's client) with drizzle's own type parsers and error wrapping: drizzle's
 * per-call prepared query object, spans and placeholder filling were a few percent of a search's Node CPU (issue 29
 * item 3). Its parameters are compacted once (compact-params.ts): one per slot, constant text inline.
 */
export function hotStatement<V extends object, T>(name: string, build: (slot: Slots<V>) => SQL): HotStatement<V, T> {
  let rendered: RenderedQuery | undefined;
  let config: pg.QueryConfig | undefined;
  let params: HotParam[] = [];
  const slot = new Proxy({} as Slots<V>, { get: (_, key) => sql`${sql.placeholder(String(key))}` });
  return async (db, { parts }) => {
    const internals = driverOf(db);
    if (!rendered) {
      rendered = compactParams(internals.dialect.sqlToQuery(build(slot)));
      config = { name, text: rendered.sql, types: DRIZZLE_TYPES };
      params = rendered.params.map((p) =>
        p instanceof Placeholder
          ? { slot: p.name }
          : p instanceof Param && p.value instanceof Placeholder
            ? { slot: p.value.name, encode: (value: unknown) => p.encoder.mapToDriverValue(value) }
            : { constant: p },
      );
    }
    if (internals.session instanceof NodePgSession) {
      const bound = new Array<unknown>(params.length);
      for (let i = 0; i < params.length; i++) {
        const p = params[i]!;
        if ('constant' in p) {
          bound[i] = p.constant;
          continue;
        }
        const value = valueOf(parts, p.slot);
        bound[i] = p.encode ? p.encode(value) : value;
      }
      const client = (internals.session as unknown as { client: PgQueryable }).client;
      // Nothing above waits: the query is on the wire when this call returns (pipelined-transaction.ts relies on it).
      try {
        return (await client.query(config!, bound)).rows as T[];
      } catch (error) {
        throw new DrizzleQueryError(rendered.sql, bound, error as Error);
      }
    }
    const values: Record<string, unknown> = {};
    for (const p of params) if ('slot' in p) values[p.slot] = valueOf(parts, p.slot);
    const result = await internals.session.prepareQuery(rendered, undefined, name, false).execute(values);
    return (result as { rows: T[] }).rows;
  };
}
