// The statement timeout on a request's database work (issue 10 item 2, issue 11 item 4): a search that waits on a
// locked table answers 503 DATABASE_BUSY within the timeout instead of hanging, writes no audit row, and the next
// search once the lock is gone answers 200. PostgreSQL only: the embedded PGlite has no statement timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { ROLE_IDS } from '../../contracts/constants';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database';
import { openDatabase, type DatabaseHandle } from './client';
import { testConfig } from '../test/test-app';
import { createStaffUser, signIn } from '../test/staff';
import { searchAuditRows, searchOnce } from '../test/search-audit';

const serverUrl = process.env.DATABASE_URL;
const TIMEOUT_MS = 400;

describe.skipIf(!serverUrl)('statement timeout on PostgreSQL', () => {
  let scratch: ScratchDatabase;
  let handle: DatabaseHandle;
  let app: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl!, 'nhr_timeout');
    handle = await openDatabase({ databaseUrl: scratch.url, poolSize: 3, statementTimeoutMs: TIMEOUT_MS });
    await handle.migrate(); // migrations run without the timeout
    const config = testConfig({ statementTimeoutMs: TIMEOUT_MS });
    app = await buildApp({ db: handle.db, config });
    await app.ready();
    const user = await createStaffUser(handle.db, { roleId: ROLE_IDS.doctor });
    cookie = await signIn(app, user.email, user.password);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await handle?.close();
    await scratch?.drop();
  });

  const search = () => searchOnce(app, cookie);
  const searchRows = () => searchAuditRows(scratch.url);

  it('answers 503 DATABASE_BUSY with Retry-After when the work outlasts the timeout, and nothing is audited', async () => {
    const before = await searchRows();
    const locker = new pg.Client({ connectionString: scratch.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE patients IN ACCESS EXCLUSIVE MODE');
      const res = await search();
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: 'DATABASE_BUSY', message: expect.any(String) });
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

  it('covers report work: generating a report over a locked audit log answers 503 DATABASE_BUSY and stores nothing', async () => {
    const auditor = await createStaffUser(handle.db, { roleId: ROLE_IDS.auditor });
    const auditorCookie = await signIn(app, auditor.email, auditor.password);
    const locker = new pg.Client({ connectionString: scratch.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE audit_logs IN ACCESS EXCLUSIVE MODE');
      const res = await app.inject({
        method: 'POST',
        url: '/api/compliance-reports/generate',
        headers: { cookie: auditorCookie },
        payload: { reportType: 'HIPAA', title: 'Busy', dateFrom: '2026-01-01', dateTo: '2026-11-23' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('DATABASE_BUSY');
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    const list = await app.inject({ method: 'GET', url: '/api/compliance-reports', headers: { cookie: auditorCookie } });
    expect(list.json()).toEqual([]);
  });
});
