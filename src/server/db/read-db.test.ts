// Reads off the primary (issue 28 item 4, decision 058). On PostgreSQL, DATABASE_READ_URL points at a second database
// that holds other rows than the primary, through a role that may only SELECT there, in sessions that cannot write:
// a report and an audit search answer that database's rows (they ran there), while the report, the audit rows and the
// duplicate scan's pairs are written on the primary. A read URL that refuses connections, or a server that takes
// them and never answers, leaves the reads on the primary. On PGlite (and without DATABASE_READ_URL) everything is
// the one database, and the answers say so. A real standby (replay lag, a promotion) is the failover drill's.
import { createServer, type Server } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../../contracts/constants';
import type { HipaaReportData } from '../../contracts/compliance-report-data';
import { buildApp } from '../app';
import { writeAudit } from '../audit/audit-writer';
import { claimRun, runScan } from '../modules/duplicates/scan-job';
import { auditEntry, query } from '../test/audit-fixtures';
import { createPatient } from '../test/patient-fixtures';
import { createStaffUser, signIn, signInAs } from '../test/staff';
import { createTestApp, testConfig, type TestApp } from '../test/test-app';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import type { Db } from './client';
import { openReadPool, readDbOf, type ReadPoolHandle } from './read-db';
import { adminQuery } from './scratch-database';

const today = new Date().toISOString().slice(0, 10);
const yearAgo = new Date(Date.now() - 300 * 86_400_000).toISOString().slice(0, 10);
const report = { reportType: 'HIPAA', title: 'Read replica check', description: '', dateFrom: today, dateTo: today };
const MARKER = 'replica-marker';

const count = async (db: Db, statement: ReturnType<typeof sql>): Promise<number> => (await query<{ n: number }>(db, statement))[0]!.n;

/** An app on `primary` with its reads on `readDb`, and an auditor's cookie. */
async function appWithReads(primary: Db, readDb: Db | undefined): Promise<{ app: FastifyInstance; cookie: string }> {
  const app = await buildApp({ db: primary, readDb, config: testConfig() });
  await app.ready();
  const auditor = await createStaffUser(primary, { roleId: ROLE_IDS.auditor });
  return { app, cookie: await signIn(app, auditor.email, auditor.password) };
}

const generate = (app: FastifyInstance, cookie: string) =>
  app.inject({ method: 'POST', url: '/api/compliance-reports/generate', payload: report, headers: { cookie } });
const searchAudit = (app: FastifyInstance, cookie: string, userId: string) =>
  app.inject({ method: 'GET', url: `/api/audit-logs?userId=${userId}`, headers: { cookie } });

describe('without DATABASE_READ_URL (PGlite, or PostgreSQL without a standby)', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    cookie = (await signInAs(t, ROLE_IDS.auditor)).cookie;
  });
  afterAll(async () => t?.close());

  it('reads on the primary, and the report and the audit search say so', async () => {
    const res = await generate(t.app, cookie);
    expect(res.statusCode).toBe(201);
    const data = JSON.parse(res.json<{ reportData: string }>().reportData) as HipaaReportData;
    expect(data.dataAsOf).toMatchObject({ server: 'primary' });
    expect(Date.parse(data.dataAsOf!.dataAsOf!)).not.toBeNaN();

    const search = await searchAudit(t.app, cookie, 'nobody');
    expect(search.statusCode).toBe(200);
    expect(search.headers['x-data-server']).toBe('primary');
    expect(Date.parse(String(search.headers['x-data-as-of']))).not.toBeNaN();
  });
});

const serverUrl = process.env.DATABASE_URL;

describe.skipIf(!serverUrl)('with DATABASE_READ_URL on PostgreSQL', () => {
  let primary: TestDatabase;
  let second: TestDatabase;
  let readPool: ReadPoolHandle;
  const role = `nhr_reader_${randomBytes(4).toString('hex')}`;
  let app: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    primary = await createTestDatabase();
    second = await createTestDatabase();
    // Rows only the read database has: what an answer read there shows.
    await writeAudit(second.handle.db, auditEntry({ actor: { userId: MARKER, userName: 'Only On The Replica' }, action: 'VIEW' }));
    // A role that may only read the second database.
    const secondName = new URL(second.url!).pathname.slice(1);
    await adminQuery(serverUrl!, `CREATE ROLE ${role} LOGIN`);
    await adminQuery(serverUrl!, `GRANT CONNECT ON DATABASE ${secondName} TO ${role}`);
    await adminQuery(second.url!, `GRANT USAGE ON SCHEMA public TO ${role}; GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${role}`);
    const readUrl = new URL(second.url!);
    readUrl.username = role;
    readPool = openReadPool(readUrl.toString());
    ({ app, cookie } = await appWithReads(primary.handle.db, readPool.db));
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await readPool?.close();
    await primary?.dispose();
    const secondName = second ? new URL(second.url!).pathname.slice(1) : undefined;
    await second?.dispose();
    if (secondName) await adminQuery(serverUrl!, `DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
  });

  it('the read pool cannot write, whatever the role may do', async () => {
    await expect(readPool.db.execute(sql`CREATE TEMP TABLE t (x int)`)).rejects.toMatchObject({
      cause: expect.objectContaining({ code: '25006' }), // read_only_sql_transaction
    });
  });

  it('computes a report on the read database and stores it, with its audit row, on the primary', async () => {
    const res = await generate(app, cookie);
    expect(res.statusCode).toBe(201);
    const stored = res.json<{ id: number; reportData: string }>();
    const data = JSON.parse(stored.reportData) as HipaaReportData;
    // The marker's row is only in the read database: the report was computed there.
    expect(data.accessesByUser.rows.map((r) => r.userId)).toContain(MARKER);
    expect(data.dataAsOf).toMatchObject({ server: 'primary' }); // a second database, not a standby in recovery
    const onPrimary = primary.handle.db;
    expect(await count(onPrimary, sql`SELECT count(*)::int AS n FROM compliance_reports WHERE id = ${stored.id}`)).toBe(1);
    expect(
      await count(
        onPrimary,
        sql`SELECT count(*)::int AS n FROM audit_logs WHERE action = 'CREATE' AND resource_type = 'COMPLIANCE_REPORT' AND resource_id = ${String(stored.id)}`,
      ),
    ).toBe(1);
    expect(await count(second.handle.db, sql`SELECT count(*)::int AS n FROM compliance_reports`)).toBe(0);
    expect(await count(onPrimary, sql`SELECT count(*)::int AS n FROM audit_logs WHERE user_id = ${MARKER}`)).toBe(0);
  });

  it('searches the audit log on the read database and records the search on the primary', async () => {
    const before = await count(second.handle.db, sql`SELECT count(*)::int AS n FROM audit_logs`);
    const res = await searchAudit(app, cookie, MARKER);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ userId: string }[]>().map((e) => e.userId)).toEqual([MARKER]);
    expect(Date.parse(String(res.headers['x-data-as-of']))).not.toBeNaN();
    const [viewRow] = await query<{ new_values: string }>(
      primary.handle.db,
      sql`SELECT new_values::text FROM audit_logs WHERE action = 'VIEW' AND resource_type = 'AUDIT_LOG' ORDER BY id DESC LIMIT 1`,
    );
    expect(JSON.parse(viewRow!.new_values)).toMatchObject({ filters: { userId: MARKER }, returned: 1 });
    expect(await count(second.handle.db, sql`SELECT count(*)::int AS n FROM audit_logs`)).toBe(before);
  });

  it('reads the defaulter list on the read database and records the search on the primary', async () => {
    const facility = 'Oshakati Intermediate Hospital';
    const nurse = await createStaffUser(primary.handle.db, { roleId: ROLE_IDS.nurse, facility });
    const nurseCookie = await signIn(app, nurse.email, nurse.password);
    const before = await count(second.handle.db, sql`SELECT count(*)::int AS n FROM audit_logs`);
    const res = await app.inject({
      method: 'GET',
      url: `/api/defaulters?facility=${encodeURIComponent(facility)}&from=${yearAgo}&to=${today}`,
      headers: { cookie: nurseCookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-data-server']).toBe('primary'); // a second database, not a standby in recovery
    const [row] = await query<{ new_values: string }>(
      primary.handle.db,
      sql`SELECT new_values::text FROM audit_logs WHERE action = 'SEARCH' AND user_id = ${nurse.id} ORDER BY id DESC LIMIT 1`,
    );
    expect(JSON.parse(row!.new_values)).toMatchObject({ criteria: { method: 'defaulters', facility } });
    expect(await count(second.handle.db, sql`SELECT count(*)::int AS n FROM audit_logs`)).toBe(before);
  });

  it('reads the duplicate scan on the read database and keeps its pairs on the primary', async () => {
    // The same two patients in both databases (the same ids), a typo pair on the read database only.
    const first = { firstName: 'Ndapewa', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' };
    const a = await createPatient(primary.handle.db, first);
    const b = await createPatient(primary.handle.db, { firstName: 'Selma', lastName: 'Iipumbu', dateOfBirth: '1959-02-24' });
    const a2 = await createPatient(second.handle.db, first);
    const b2 = await createPatient(second.handle.db, { ...first, firstName: 'Ndapwea' });
    expect([a2.id, b2.id]).toEqual([a.id, b.id]);
    const owner = 'read-test';
    const run = await claimRun(primary.handle.db, owner, null, new Date());
    const reads = readDbOf(primary.handle.db, readPool.db);
    const options = { thresholds: testConfig().match, now: () => new Date(), reads };
    expect(await runScan(primary.handle.db, run!, owner, options)).toBe('done');
    const pairs = await query<{ a: number; b: number }>(primary.handle.db, sql`SELECT patient_a AS a, patient_b AS b FROM duplicate_pairs`);
    expect(pairs.map((p) => [p.a, p.b].sort((x, y) => x - y))).toEqual([[a.id, b.id].sort((x, y) => x - y)]);
    expect(await count(second.handle.db, sql`SELECT count(*)::int AS n FROM duplicate_pairs`)).toBe(0);
  });
});

describe.skipIf(!serverUrl)('when DATABASE_READ_URL cannot be reached', () => {
  let primary: TestDatabase;
  let silent: Server;
  const pools: ReadPoolHandle[] = [];
  beforeAll(async () => {
    primary = await createTestDatabase();
    await writeAudit(primary.handle.db, auditEntry({ actor: { userId: MARKER, userName: 'On The Primary' }, action: 'VIEW' }));
    // A server that takes connections and never answers: the read must not wait for it.
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  }, 60_000);
  afterAll(async () => {
    for (const pool of pools) await pool.close().catch(() => undefined);
    silent?.close();
    await primary?.dispose();
  });

  const refused = 'postgres://postgres@127.0.0.1:1/nhr';
  const unanswered = () => `postgres://postgres@127.0.0.1:${(silent.address() as { port: number }).port}/nhr`;

  it.each([
    ['refuses connections', () => refused],
    ['never answers', unanswered],
    ['names two hosts, neither up', () => `postgres://postgres@127.0.0.1:1,127.0.0.1:2/nhr?target_session_attrs=prefer-standby`],
  ])(
    'reads on the primary when the read URL %s',
    async (_, url) => {
      const pool = openReadPool(url());
      pools.push(pool);
      const { app, cookie } = await appWithReads(primary.handle.db, pool.db);
      try {
        const res = await generate(app, cookie);
        expect(res.statusCode).toBe(201);
        const data = JSON.parse(res.json<{ reportData: string }>().reportData) as HipaaReportData;
        expect(data.accessesByUser.rows.map((r) => r.userId)).toContain(MARKER);
        expect(data.dataAsOf).toMatchObject({ server: 'primary' });
        const search = await searchAudit(app, cookie, MARKER);
        expect(search.statusCode).toBe(200);
        expect(search.json<{ userId: string }[]>().map((e) => e.userId)).toEqual([MARKER]);
      } finally {
        await app.close();
      }
    },
    60_000,
  );
});
