// A pool that follows the primary of a replicated pair (issue 28 item 1, decision 055). node-postgres has no
// multi-host connection strings, so this reads libpq's form itself: DATABASE_URL may name several hosts,
// `postgres://user@host1:5432,host2:5433/db?target_session_attrs=read-write`, and every new connection goes to the
// host that accepts writes (`pg_is_in_recovery()` false), asked again whenever a connection to the last one fails.
// After a failover the pool's old connections fail once (their requests answer 503 DATABASE_UNAVAILABLE, which a
// client retries with the same Idempotency-Key), and the next connections find the promoted standby. Nothing is
// retried here: a statement whose outcome is unknown is never sent twice by the server.
import pg from 'pg';

export interface HostPort {
  host: string;
  port: number;
}

export interface MultiHostUrl {
  hosts: HostPort[];
  /** The same connection string with only the first host, for everything but the host and the port. */
  single: string;
}

/** The hosts of a libpq-style URL with more than one host; null for an ordinary URL (one host). */
export function parseMultiHostUrl(url: string): MultiHostUrl | null {
  const m = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/.exec(url);
  if (!m || !m[3]!.includes(',')) return null;
  const hosts = m[3]!.split(',').map((part): HostPort => {
    const h = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(part);
    if (!h) throw new Error(`DATABASE_URL names a host that cannot be read: ${part}`);
    return { host: h[1]!.replace(/^\[|\]$/g, ''), port: h[2] ? Number(h[2]) : 5432 };
  });
  // target_session_attrs is libpq's; node-postgres would pass an unknown parameter on to the server, which refuses it.
  const rest = m[4]!.replace(/([?&])target_session_attrs=[^&#]*&?/, '$1').replace(/[?&]$/, '');
  const first = hosts[0]!;
  const hostText = first.host.includes(':') ? `[${first.host}]` : first.host;
  return { hosts, single: `${m[1]}${m[2] ?? ''}${hostText}:${first.port}${rest}` };
}

/** Whether an error means the connection or the server went away (or is a standby now): the primary may have changed. */
export function isConnectionLost(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      // 57P01-03: shut down or starting; 08xxx: connection exceptions; 25006: a read-only (demoted) server.
      if (/^(57P0[123]|08\d\d\d|25006)$/.test(code)) return true;
      if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'].includes(code)) return true;
    }
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && /^Connection terminated|connection timeout|Client has encountered a connection error/i.test(message))
      return true;
  }
  return false;
}

const PROBE_TIMEOUT_MS = 2_000;
const CONNECT_TIMEOUT_MS = 5_000;

/** Points a client at a host before it connects (node-postgres reads these two fields when it connects; in the
 * client's config a connection string would win over a host given beside it). */
function aimAt(client: pg.Client, target: HostPort): void {
  const fields = client as unknown as { host: string; port: number };
  fields.host = target.host;
  fields.port = target.port;
}

/**
 * Which server a pool wants, as libpq's target_session_attrs says it: `primary` (read-write) for DATABASE_URL;
 * `prefer-standby` for DATABASE_READ_URL (decision 058): a standby when one answers, else the primary.
 */
export type TargetSession = 'primary' | 'prefer-standby';

/**
 * A read pool that settled on the primary because no standby answered looks for one again after this long, so the
 * reads move back off the primary once a standby is back (the old primary rejoining after a failover).
 */
const FALLBACK_RECHECK_MS = 30_000;

/** Finds and remembers the host to connect to; asked again after `forget()`. One search at a time. */
export class PrimaryFinder {
  private known: HostPort | null = null;
  private knownUntil = Number.POSITIVE_INFINITY;
  private searching: Promise<HostPort> | null = null;

  constructor(
    private readonly hosts: HostPort[],
    private readonly connectionString: string,
    private readonly target: TargetSession = 'primary',
  ) {}

  current(): Promise<HostPort> {
    if (this.known && Date.now() < this.knownUntil) return Promise.resolve(this.known);
    this.searching ??= this.search().finally(() => (this.searching = null));
    return this.searching;
  }

  forget(host?: HostPort): void {
    if (!host || (this.known && this.known.host === host.host && this.known.port === host.port)) this.known = null;
  }

  /** prefer-standby: the remembered standby turned out to be a primary (it was promoted): look for a standby again soon. */
  recheckLater(host: HostPort): void {
    if (this.known && this.known.host === host.host && this.known.port === host.port)
      this.knownUntil = Math.min(this.knownUntil, Date.now() + FALLBACK_RECHECK_MS);
  }

  private remember(host: HostPort, until = Number.POSITIVE_INFINITY): HostPort {
    this.known = host;
    this.knownUntil = until;
    return host;
  }

  private async search(): Promise<HostPort> {
    const failures: string[] = [];
    let primary: HostPort | null = null;
    for (const candidate of this.hosts) {
      const probe = new pg.Client({ connectionString: this.connectionString, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
      aimAt(probe, candidate);
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        const { rows } = await probe.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
        const standby = rows[0]?.standby === true;
        if (this.target === 'primary' && !standby) return this.remember(candidate);
        if (this.target === 'prefer-standby' && standby) return this.remember(candidate);
        if (!standby) primary ??= candidate;
        failures.push(`${candidate.host}:${candidate.port} is a ${standby ? 'standby' : 'primary'}`);
      } catch (err) {
        failures.push(`${candidate.host}:${candidate.port}: ${(err as Error).message}`);
      } finally {
        await probe.end().catch(() => undefined);
      }
    }
    // prefer-standby, as libpq: no standby answered, so any server that did (the primary), for a while.
    if (primary) return this.remember(primary, Date.now() + FALLBACK_RECHECK_MS);
    const wanted = this.target === 'primary' ? 'primary' : 'server';
    throw Object.assign(new Error(`No ${wanted} among the database hosts (${failures.join('; ')})`), { code: '08001' });
  }
}

/**
 * A pg.Pool whose connections go to the primary: each new connection asks the finder (cached), connects there,
 * and checks the server is still not in recovery; a failure makes the finder search again. With `prefer-standby`
 * (the read pool, decision 058) they go to a standby when one answers, else to the primary, and either is accepted.
 */
export function primaryFollowingPool(url: MultiHostUrl, options: pg.PoolConfig, want: TargetSession = 'primary'): pg.Pool {
  const finder = new PrimaryFinder(url.hosts, url.single, want);

  class PrimaryClient extends pg.Client {
    // pg-pool calls connect with a callback; node-postgres reads this.host and this.port when it connects.
    override connect(): Promise<pg.Client>;
    override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void;
    override connect(callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): Promise<pg.Client> | void {
      const done = this.connectToPrimary().then(() => this);
      if (!callback) return done;
      done.then(
        (client) => (callback as (err: null, c: pg.Client) => void)(null, client),
        (err: Error) => (callback as (err: Error) => void)(err),
      );
    }

    private async connectToPrimary(): Promise<void> {
      const target = await finder.current();
      aimAt(this, target);
      // A host that takes the connection and never answers must not hold the request: give up and ask again.
      const timeout = this as unknown as { _connectionTimeoutMillis: number };
      if (!timeout._connectionTimeoutMillis) timeout._connectionTimeoutMillis = CONNECT_TIMEOUT_MS;
      try {
        await super.connect();
        const { rows } = await super.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
        if (want === 'primary' && rows[0]?.standby) throw Object.assign(new Error('The server is a standby now'), { code: '25006' });
        if (want === 'prefer-standby' && !rows[0]?.standby) finder.recheckLater(target);
      } catch (err) {
        finder.forget(target);
        throw err;
      }
      // The server went away under this connection (not an end the pool asked for): ask again before the next one.
      this.on('end', () => {
        if (!(this as unknown as { _ending?: boolean })._ending) finder.forget(target);
      });
      this.on('error', (err) => {
        if (isConnectionLost(err)) finder.forget(target);
      });
    }
  }

  const pool = new pg.Pool({ ...options, connectionString: url.single, Client: PrimaryClient });
  return pool;
}
