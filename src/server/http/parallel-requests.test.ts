// One user's parallel requests do not queue on each other (decision 059): while a transaction of the same user holds
// what an in-flight search or grant writes (its counted request under the user's limits, and its refresh of the
// bulk-search rows of the same patient), the user's next search and grant run at once: under a statement timeout
// they answer 200/201, not 503 DATABASE_BUSY (they did queue on the upserted counter and search_volume rows until
// the other's commit). PostgreSQL only: the embedded PGlite has one connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { ROLE_IDS } from '../../contracts/constants';
import { createScratchDatabase, type ScratchDatabase } from '../db/scratch-database';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { bulkSearchCheckSql } from '../modules/privacy/alerts.repository';
import { createPatient, type TestPatient } from '../test/patient-fixtures';
import { queryOne } from '../test/sql';
import { createStaffUser, signIn } from '../test/staff';
import { testConfig } from '../test/test-app';
import { limitInStatement, staffLimit } from './rate-limit';

const serverUrl = process.env.DATABASE_URL;
// Far beyond the work itself: a request that waits for the other transaction's commit would run into it.
const TIMEOUT_MS = 3_000;

describe.skipIf(!serverUrl)("one user's parallel requests on PostgreSQL", () => {
  let scratch: ScratchDatabase;
  let handle: DatabaseHandle;
  let app: FastifyInstance;
  let cookie: string;
  let userId: string;
  let patient: TestPatient;
  const config = testConfig({ statementTimeoutMs: TIMEOUT_MS });

  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl!, 'nhr_parallel');
    handle = await openDatabase({ databaseUrl: scratch.url, poolSize: 4, statementTimeoutMs: TIMEOUT_MS });
    await handle.migrate();
    app = await buildApp({ db: handle.db, config });
    await app.ready();
    const user = await createStaffUser(handle.db, { roleId: ROLE_IDS.doctor });
    userId = user.id;
    cookie = await signIn(app, user.email, user.password);
    patient = await createPatient(handle.db);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await handle?.close();
    await scratch?.drop();
  });

  const search = () =>
    app.inject({
      method: 'POST',
      url: '/api/patients/search',
      headers: { cookie },
      payload: { method: 'id-number', idNumber: patient.idNumber },
    });
  const grant = () =>
    app.inject({ method: 'POST', url: `/api/patients/${patient.id}/access`, headers: { cookie }, payload: { consent: true } });
  const counted = async (name: 'search' | 'accessGrant') =>
    (await queryOne<{ n: number }>(
      handle.db,
      sql`SELECT coalesce(sum(hits), 0)::int AS n FROM rate_limit_counts WHERE key = ${`${name}:user:${userId}`}`,
    ))!.n;

  it('a search and a grant run while another transaction of the same user holds its counted requests and bulk-search rows', async () => {
    expect((await search()).statusCode).toBe(200); // the user has searched this patient before (their search_volume row)
    // The row's last refresh is old enough for the next search to move it (and hold it until commit).
    await handle.db.execute(sql`UPDATE search_volume SET last_seen = now() - interval '5 minutes' WHERE user_id = ${userId}`);
    const at = config.now();
    const check = {
      userId,
      userName: 'Parallel',
      facility: null,
      ip: '127.0.0.1',
      userAgent: null,
      threshold: 1_000,
      minutes: 60,
      description: 'bulk',
      dayThreshold: 10_000,
      dayDescription: 'bulk day',
    };
    const answers = await handle.db.transaction(async (tx) => {
      // What an in-flight search and grant of this user hold until their commit.
      await tx.execute(limitInStatement(staffLimit(config, 'search', userId, at)).count(sql`true`));
      await tx.execute(limitInStatement(staffLimit(config, 'accessGrant', userId, at)).count(sql`true`));
      await tx.execute(sql`SELECT ${bulkSearchCheckSql(check, sql`${`{${patient.id}}`}`)}`);
      const moved = await queryOne<{ n: number }>(
        tx,
        sql`SELECT count(*)::int AS n FROM search_volume WHERE user_id = ${userId} AND last_seen > now() - interval '1 minute'`,
      );
      expect(moved!.n).toBe(1); // this transaction holds the row it moved
      return { searched: await search(), granted: await grant() };
    });
    expect(answers.searched.statusCode).toBe(200);
    expect(answers.searched.json()).toEqual([expect.objectContaining({ id: patient.id })]);
    expect(answers.granted.statusCode).toBe(201);
    // Each counted once (the other transaction's rows too, once it committed).
    expect(await counted('search')).toBe(3);
    expect(await counted('accessGrant')).toBe(2);
  });
});
