// The hot routes' cached actor (decision 028), through the real app: a search, a grant or a record opened with an actor
// from the worker's cache is confirmed by the route's own statement, so a change to the user, role, permissions or
// session between two requests takes effect on the next one exactly as if the actor were read first, and a refused
// request reads and writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { auditRowCount } from '../test/audit-fixtures';
import { testClock } from '../test/clock';
import { createPatient, type TestPatient } from '../test/patient-fixtures';
import { queryOne, queryRows } from '../test/sql';
import { signInAs } from '../test/staff';
import { createTestApp, type TestApp } from '../test/test-app';

const MINUTE = 60_000;
const clock = testClock(new Date('2026-05-04T08:00:00Z'));
let t: TestApp;
let patient: TestPatient;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  patient = await createPatient(t.db, { lastName: 'Shikongo', dateOfBirth: '1979-02-14' });
});
afterAll(async () => {
  await t?.close();
});

const search = (cookie: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/patients/search',
    headers: { cookie },
    payload: { method: 'id-number', idNumber: patient.idNumber },
  });
const fuzzy = (cookie: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/patients/search',
    headers: { cookie },
    payload: { method: 'fuzzy-name', fullName: `${patient.firstName} ${patient.lastName}`, ageRangeMin: 0, ageRangeMax: 120 },
  });
const openRecord = (cookie: string) =>
  t.app.inject({ method: 'GET', url: `/api/patients/${patient.id}/record-summary`, headers: { cookie } });
const setPermission = (userId: string, permission: string, isGranted: boolean) =>
  t.db.execute(sql`
    INSERT INTO user_permissions (user_id, permission_id, is_granted)
    SELECT ${userId}, id, ${isGranted} FROM permissions WHERE name = ${permission}`);
const searchRowsOf = (userId: string) =>
  queryRows<{ role: { name: string } | null }>(
    t.db,
    sql`SELECT new_values->'role' AS role FROM audit_logs WHERE user_id = ${userId} AND action = 'SEARCH' ORDER BY timestamp, id`,
  );

/** A doctor whose actor this worker has cached (one search read it and put it there). */
async function cachedDoctor() {
  const signedIn = await signInAs(t, 3);
  expect((await search(signedIn.cookie)).statusCode).toBe(200);
  return signedIn;
}

describe('a cached actor', () => {
  it('serves the next search and record open from the cache, each with its audit row', async () => {
    const { cookie, user } = await cachedDoctor();
    const grant = await t.app.inject({
      method: 'POST',
      url: `/api/patients/${patient.id}/access`,
      headers: { cookie },
      payload: { consent: true },
    });
    expect(grant.statusCode).toBe(201);
    const hits = t.app.actorCache.hits;
    const found = await search(cookie);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual([expect.objectContaining({ id: patient.id })]);
    const opened = await openRecord(cookie);
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({ patient: { id: patient.id } });
    expect(t.app.actorCache.hits).toBe(hits + 2);
    expect(await searchRowsOf(user.id)).toHaveLength(2);
    const viewed = await queryOne<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM audit_logs WHERE user_id = ${user.id} AND action = 'VIEW' AND new_values->>'view' = 'RECORD'`,
    );
    expect(viewed?.n).toBe(1);
  });

  it('is refused at once when the permission is revoked, and nothing is searched or audited', async () => {
    const { cookie, user } = await cachedDoctor();
    await setPermission(user.id, 'patients.search', false);
    const before = await auditRowCount(t.db);
    const refused = await search(cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'PERMISSION_REQUIRED' });
    expect(await auditRowCount(t.db)).toBe(before);
    expect(await searchRowsOf(user.id)).toHaveLength(1);
  });

  it('is refused a record when records.read is revoked: 403, nothing read or audited', async () => {
    const { cookie, user } = await cachedDoctor();
    await t.app.inject({ method: 'POST', url: `/api/patients/${patient.id}/access`, headers: { cookie }, payload: { consent: true } });
    expect((await openRecord(cookie)).statusCode).toBe(200);
    await setPermission(user.id, 'records.read', false);
    const before = await auditRowCount(t.db);
    const refused = await openRecord(cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).not.toHaveProperty('patient');
    expect(await auditRowCount(t.db)).toBe(before);
  });

  it('serves a delta read from the cache, and refuses it once records.read is revoked: 403, nothing read or audited', async () => {
    const { cookie, user } = await cachedDoctor();
    await t.app.inject({ method: 'POST', url: `/api/patients/${patient.id}/access`, headers: { cookie }, payload: { consent: true } });
    const changes = () => t.app.inject({ method: 'GET', url: `/api/patients/${patient.id}/changes`, headers: { cookie } });
    const hits = t.app.actorCache.hits;
    const read = await changes();
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ cursor: expect.any(String), changes: [] });
    expect(t.app.actorCache.hits).toBe(hits + 1);
    const since = await t.app.inject({
      method: 'GET',
      url: `/api/patients/${patient.id}/changes?since=${(read.json() as { cursor: string }).cursor}`,
      headers: { cookie },
    });
    expect(since.statusCode).toBe(200);
    const viewed = await queryRows<{ since: string | null }>(
      t.db,
      sql`SELECT new_values->>'since' AS since FROM audit_logs WHERE user_id = ${user.id} AND new_values->>'view' = 'CHANGES' ORDER BY id`,
    );
    expect(viewed).toEqual([{ since: null }, { since: (read.json() as { cursor: string }).cursor }]);
    await setPermission(user.id, 'records.read', false);
    const before = await auditRowCount(t.db);
    const refused = await changes();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).not.toHaveProperty('changes');
    expect(await auditRowCount(t.db)).toBe(before);
  });

  it('confirms a grant in its own statement: revoked records.read is a 403 and no grant or row is written', async () => {
    const { cookie, user } = await cachedDoctor();
    const grant = () =>
      t.app.inject({ method: 'POST', url: `/api/patients/${patient.id}/access`, headers: { cookie }, payload: { consent: true } });
    const hits = t.app.actorCache.hits;
    expect((await grant()).statusCode).toBe(201);
    expect(t.app.actorCache.hits).toBe(hits + 1);
    await setPermission(user.id, 'records.read', false);
    const before = await auditRowCount(t.db);
    const refused = await grant();
    expect(refused.statusCode).toBe(403);
    expect(await auditRowCount(t.db)).toBe(before);
    const grants = await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM access_grants WHERE user_id = ${user.id}`);
    expect(grants?.n).toBe(1);
  });

  it('gets a permission granted after a refusal on the next request', async () => {
    // An auditor may not search: the first refusal caches an actor without the permission; the grant is read anew.
    const { cookie, user } = await signInAs(t, 6);
    expect((await search(cookie)).statusCode).toBe(403);
    await setPermission(user.id, 'patients.search', true);
    const found = await search(cookie);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual([expect.objectContaining({ id: patient.id })]);
    expect(await searchRowsOf(user.id)).toHaveLength(1);
  });

  it('ends with the user: a deactivated user gets 401 and the session is deleted, nothing audited', async () => {
    const { cookie, user } = await cachedDoctor();
    await t.db.execute(sql`UPDATE users SET is_active = false WHERE id = ${user.id}`);
    const before = await auditRowCount(t.db);
    const refused = await search(cookie);
    expect(refused.statusCode).toBe(401);
    expect(await auditRowCount(t.db)).toBe(before);
    const sessions = await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM sessions WHERE sess->>'userId' = ${user.id}`);
    expect(sessions?.n).toBe(0);
  });

  it('ends with the session: signed out elsewhere (the row deleted), the next search is 401', async () => {
    const { cookie, user } = await cachedDoctor();
    await t.db.execute(sql`DELETE FROM sessions WHERE sess->>'userId' = ${user.id}`);
    const refused = await search(cookie);
    expect(refused.statusCode).toBe(401);
    expect(await searchRowsOf(user.id)).toHaveLength(1);
  });

  it('records the role the user has now: a role changed between two searches is in the second row', async () => {
    const { cookie, user } = await cachedDoctor();
    await t.db.execute(sql`UPDATE users SET role_id = 4 WHERE id = ${user.id}`);
    expect((await search(cookie)).statusCode).toBe(200);
    const rows = await searchRowsOf(user.id);
    expect(rows.map((r) => r.role?.name)).toEqual(['doctor', 'nurse']);
  });

  it('runs the fuzzy search too (read anew: that search takes several statements)', async () => {
    const { cookie, user } = await cachedDoctor();
    const found = await fuzzy(cookie);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual(expect.arrayContaining([expect.objectContaining({ id: patient.id })]));
    expect(await searchRowsOf(user.id)).toHaveLength(2);
  });

  it('still slides the idle expiry: a search every 20 minutes keeps a 30-minute session alive', async () => {
    const { cookie } = await cachedDoctor();
    for (let i = 0; i < 3; i++) {
      clock.advance(20 * MINUTE);
      expect((await search(cookie)).statusCode).toBe(200);
    }
    clock.advance(31 * MINUTE);
    expect((await search(cookie)).statusCode).toBe(401);
  });
});
