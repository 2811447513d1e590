// The pool that follows the primary (issue 28 item 1, decision 055): libpq's multi-host DATABASE_URL is read, a host
// that does not answer is passed over, and a request whose database connection is cut answers 503
// DATABASE_UNAVAILABLE (Retry-After) with nothing stored, the next one 200 on a new connection. The failover itself
// (a standby promoted) is the drill's: scripts/ha/failover-drill.test.ts.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { ROLE_IDS } from '../../contracts/constants';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database';
import { openDatabase, type DatabaseHandle } from './client';
import { isConnectionLost, parseMultiHostUrl, PrimaryFinder } from './primary-pool';
import { testConfig } from '../test/test-app';
import { createStaffUser, signIn } from '../test/staff';
import { searchAuditRows, searchOnce } from '../test/search-audit';

describe('parseMultiHostUrl', () => {
  it('reads the hosts and ports of a libpq multi-host URL and drops target_session_attrs', () => {
    expect(parseMultiHostUrl('postgres://app:pw@db1:5432,db2:5433/nhr?target_session_attrs=read-write&sslmode=require')).toEqual({
      hosts: [
        { host: 'db1', port: 5432 },
        { host: 'db2', port: 5433 },
      ],
      single: 'postgres://app:pw@db1:5432/nhr?sslmode=require',
    });
    expect(parseMultiHostUrl('postgresql://[::1]:5441,[::1]/nhr?target_session_attrs=read-write')).toEqual({
      hosts: [
        { host: '::1', port: 5441 },
        { host: '::1', port: 5432 },
      ],
      single: 'postgresql://[::1]:5441/nhr',
    });
  });

  it('leaves a one-host URL to the plain pool', () => {
    expect(parseMultiHostUrl('postgres://postgres@127.0.0.1:5432/nhr')).toBeNull();
  });

  it('refuses a host it cannot read', () => {
    expect(() => parseMultiHostUrl('postgres://u@db1:54x2,db2/nhr')).toThrow(/cannot be read/);
  });

  it('tells a lost connection from other database errors', () => {
    expect(isConnectionLost(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isConnectionLost(new Error('Failed query', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }))).toBe(true);
    expect(isConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLost(Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }))).toBe(true);
    expect(isConnectionLost(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isConnectionLost(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))).toBe(false);
  });
});

const serverUrl = process.env.DATABASE_URL;

describe.skipIf(!serverUrl)('following the primary on PostgreSQL', () => {
  let scratch: ScratchDatabase;
  let handle: DatabaseHandle;
  let app: FastifyInstance;
  let cookie: string;
  let silent: Server;

  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl!, 'nhr_primary');
    // The first host takes connections and never answers (a server that is gone); the second is the real one.
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const real = new URL(scratch.url);
    const multi = `postgres://${real.username}@127.0.0.1:${port},${real.hostname}:${real.port || 5432}${real.pathname}?target_session_attrs=read-write`;
    handle = await openDatabase({ databaseUrl: multi, poolSize: 3 });
    await handle.migrate();
    app = await buildApp({ db: handle.db, config: testConfig() });
    await app.ready();
    const user = await createStaffUser(handle.db, { roleId: ROLE_IDS.doctor });
    cookie = await signIn(app, user.email, user.password);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await handle?.close();
    await scratch?.drop();
    silent?.close();
  });

  const search = () => searchOnce(app, cookie);
  const searchRows = () => searchAuditRows(scratch.url);

  it('passes over a host that does not answer and works on the one that does', async () => {
    const res = await search();
    expect(res.statusCode).toBe(200);
  });

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After when the connection is cut mid-request, stores nothing, then answers 200', async () => {
    const before = await searchRows();
    const locker = new pg.Client({ connectionString: scratch.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE patients IN ACCESS EXCLUSIVE MODE');
      const pending = search();
      // The search waits on the lock; its server process is ended as a failover would end it.
      const deadline = Date.now() + 10_000;
      for (;;) {
        const { rows } = await locker.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
        );
        if (rows.length > 0) {
          for (const r of rows) await locker.query('SELECT pg_terminate_backend($1)', [r.pid]);
          break;
        }
        if (Date.now() > deadline) throw new Error('the search never waited on the lock');
        await new Promise((r) => setTimeout(r, 20));
      }
      const res = await pending;
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: 'DATABASE_UNAVAILABLE', message: expect.any(String) });
      expect(res.headers['retry-after']).toBe('2');
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    expect(await searchRows()).toBe(before);
    const again = await search();
    expect(again.statusCode).toBe(200);
    expect(await searchRows()).toBe(before + 1);
  });
});

describe.skipIf(!serverUrl)('prefer-standby (the read pool, decision 058)', () => {
  it('takes the primary when no host is a standby, and still refuses when no host answers', async () => {
    const real = new URL(serverUrl!);
    const host = { host: real.hostname, port: Number(real.port || 5432) };
    const finder = new PrimaryFinder([{ host: '127.0.0.1', port: 1 }, host], serverUrl!, 'prefer-standby');
    expect(await finder.current()).toEqual(host);
    const none = new PrimaryFinder([{ host: '127.0.0.1', port: 1 }], serverUrl!, 'prefer-standby');
    await expect(none.current()).rejects.toMatchObject({ code: '08001', message: expect.stringMatching(/No server among/) });
  });
});
