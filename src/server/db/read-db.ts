// Reads off the primary (issue 28 item 4, decision 058). DATABASE_READ_URL names the standby (or both servers of
// the pair, libpq's form, `?target_session_attrs=prefer-standby`): a pool whose sessions cannot write
// (default_transaction_read_only) and that goes to a standby when one answers, else to the primary. Only the reads
// that tolerate a little staleness use it: compliance reports, the audit screen's searches, the defaulter list and
// the duplicate scan's reads. Each says how stale it may be; a standby further behind than that, or one that does
// not answer, is passed over for the primary: the read is slower then, never wrong by more than it said, never hung.
// Without DATABASE_READ_URL (and always on PGlite) every read is on the primary, as before.
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db, DbOrTx } from './client';
import { isConnectionLost, parseMultiHostUrl, primaryFollowingPool } from './primary-pool';
import * as schema from './schema';

/** How fresh an answer is (what a report records as "data as of", and the audit screen's X-Data-As-Of). */
export interface Freshness {
  /** The kind of server that answered: a standby (its data may trail the primary's) or the primary. */
  server: 'standby' | 'primary';
  /**
   * Every change committed on the primary up to this moment is in the answer, none after it (ISO time). On the
   * primary the start of the reading transaction; on a standby the commit time of the last transaction it replayed
   * (on a quiet system that is older than the moment of the read, never newer). Null: the standby cannot tell.
   */
  dataAsOf: string | null;
}

export interface ReadResult<T> {
  value: T;
  freshness: Freshness;
}

/** A job's reads (several transactions, e.g. a chunk of the duplicate scan) on one source, moved to the primary if it is lost. */
export interface JobReader {
  run<T>(read: (db: Db) => Promise<T>): Promise<T>;
}

export interface ReadDb {
  /**
   * Runs `read` in one read-only, repeatable-read snapshot on the read pool when it answers and is at most
   * `maxStalenessMs` behind, else on the primary.
   */
  snapshot<T>(maxStalenessMs: number, read: (tx: DbOrTx) => Promise<T>): Promise<ReadResult<T>>;
  /** The source for a job's reads, chosen as `snapshot` chooses; a read that loses the read pool is run again on the primary. */
  forJob(maxStalenessMs: number): Promise<JobReader>;
}

/**
 * After the read pool failed to answer, reads go to the primary for this long before the pool is tried again: one
 * unreachable standby must not add its connect timeout to every report and search.
 */
const READ_POOL_BACKOFF_MS = 10_000;
/** A standby that does not take a connection within this is passed over (the primary is asked instead). */
const READ_CONNECT_TIMEOUT_MS = 3_000;

const FRESHNESS = sql`SELECT pg_is_in_recovery() AS standby,
  CASE WHEN pg_is_in_recovery() THEN pg_last_xact_replay_timestamp() ELSE now() END AS as_of,
  CASE WHEN pg_is_in_recovery() THEN (extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000)::float8 ELSE 0 END AS lag_ms`;

interface FreshnessRow {
  standby: boolean;
  as_of: Date | string | null;
  lag_ms: number | string | null;
}

async function freshnessOf(tx: DbOrTx): Promise<{ freshness: Freshness; lagMs: number | null }> {
  const result = (await tx.execute(FRESHNESS)) as unknown as { rows: FreshnessRow[] };
  const row = result.rows[0]!;
  const asOf = row.as_of === null ? null : new Date(row.as_of).toISOString();
  return {
    freshness: { server: row.standby ? 'standby' : 'primary', dataAsOf: asOf },
    lagMs: row.lag_ms === null ? null : Number(row.lag_ms),
  };
}

/** Thrown inside a standby's transaction that is further behind than the read allows: the read goes to the primary. */
class TooStale extends Error {}

/** Whether the read pool failed as a server that is gone or busy replaying fails: the read can go to the primary. */
export function isReadPoolUnavailable(error: unknown): boolean {
  if (isConnectionLost(error)) return true;
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    // pg-pool's own wait for a connection; and a standby cancelling a query that conflicts with replay (40001).
    if (typeof message === 'string' && /timeout exceeded when trying to connect|conflict with recovery/i.test(message)) return true;
    if (code === '57P04') return true; // database_dropped (a recovery conflict on the database itself)
  }
  return false;
}

const snapshotOptions = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;

/** Everything on the primary: no DATABASE_READ_URL, or PGlite. */
export const primaryReads = (primary: Db): ReadDb => readDbOf(primary, undefined);

export function readDbOf(primary: Db, replica: Db | undefined, log: (message: string) => void = () => undefined): ReadDb {
  let skipUntil = 0;
  const replicaInUse = (): Db | undefined => (replica && Date.now() >= skipUntil ? replica : undefined);
  const failed = (error: unknown): void => {
    skipUntil = Date.now() + READ_POOL_BACKOFF_MS;
    // The codes only: a driver error's message can carry the query's parameters (DESIGN.md §6: never in the logs).
    const codes = [(error as { code?: unknown }).code, ((error as { cause?: { code?: unknown } }).cause ?? {}).code].filter(Boolean);
    log(`read pool unavailable (${codes.join(', ') || 'no code'}): reading on the primary for ${READ_POOL_BACKOFF_MS / 1000} s`);
  };

  async function onPrimary<T>(read: (tx: DbOrTx) => Promise<T>): Promise<ReadResult<T>> {
    return primary.transaction(async (tx) => {
      const { freshness } = await freshnessOf(tx);
      return { value: await read(tx), freshness };
    }, snapshotOptions);
  }

  return {
    async snapshot(maxStalenessMs, read) {
      const source = replicaInUse();
      if (!source) return onPrimary(read);
      try {
        return await source.transaction(async (tx) => {
          // The first statement: the snapshot is taken here, with the standby's replay position of this moment.
          const { freshness, lagMs } = await freshnessOf(tx);
          if (freshness.server === 'standby' && (lagMs === null || lagMs > maxStalenessMs)) throw new TooStale();
          return { value: await read(tx), freshness };
        }, snapshotOptions);
      } catch (error) {
        if (error instanceof TooStale) return onPrimary(read);
        if (!isReadPoolUnavailable(error)) throw error;
        failed(error);
        return onPrimary(read);
      }
    },

    async forJob(maxStalenessMs) {
      const primaryReader: JobReader = { run: (read) => read(primary) };
      const source = replicaInUse();
      if (!source) return primaryReader;
      let checked: Awaited<ReturnType<typeof freshnessOf>>;
      try {
        checked = await source.transaction((tx) => freshnessOf(tx), snapshotOptions);
      } catch (error) {
        if (!isReadPoolUnavailable(error)) throw error;
        failed(error);
        return primaryReader;
      }
      const { freshness, lagMs } = checked;
      if (freshness.server === 'standby' && (lagMs === null || lagMs > maxStalenessMs)) return primaryReader;
      let current: Db = source;
      return {
        async run(read) {
          if (current === primary) return read(primary);
          try {
            return await read(current);
          } catch (error) {
            if (!isReadPoolUnavailable(error)) throw error;
            failed(error);
            current = primary; // the rest of this job reads the primary
            return read(primary);
          }
        },
      };
    },
  };
}

export interface ReadPoolHandle {
  db: Db;
  close(): Promise<void>;
}

/**
 * The pool of DATABASE_READ_URL: sessions that cannot write (default_transaction_read_only: even a standby promoted
 * to primary, or the primary a multi-host URL falls back to, refuses a write from here), on a standby when one
 * answers (prefer-standby, as libpq's target_session_attrs, which node-postgres does not read: primary-pool.ts).
 */
export function openReadPool(url: string, options: { poolSize?: number; statementTimeoutMs?: number } = {}): ReadPoolHandle {
  const config: pg.PoolConfig = {
    max: options.poolSize ?? 5,
    connectionTimeoutMillis: READ_CONNECT_TIMEOUT_MS,
    options: '-c default_transaction_read_only=on',
    // Connections are renewed every minute, so reads move back to a standby once there is one again (after a failover
    // the read pool's standby is the new primary until the old primary rejoins as the standby).
    maxLifetimeSeconds: 60,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  };
  const multiHost = parseMultiHostUrl(url);
  // One host: libpq's target_session_attrs would reach the server as an unknown parameter; it means nothing here.
  const single = url.replace(/([?&])target_session_attrs=[^&#]*&?/, '$1').replace(/[?&]$/, '');
  const pool = multiHost ? primaryFollowingPool(multiHost, config, 'prefer-standby') : new pg.Pool({ connectionString: single, ...config });
  pool.on('error', () => undefined); // an idle client's error is reported on its next use
  return { db: drizzlePg(pool, { schema }) as unknown as Db, close: () => pool.end() };
}
