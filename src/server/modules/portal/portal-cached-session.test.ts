// The portal's read with a patient session from the worker's cache (decision 028, issue 29): GET
// /api/patient-portal/me confirms the cached session in its own statement (one round trip), so a session ended,
// expired or moved to another patient between two reads takes effect on the very next one, and a read refused that
// way reads and audits nothing. A staff session on the portal is still refused as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testClock } from '../../test/clock';
import { insertPatient, signInPatient, type SeededPatient } from '../../test/portal-fixtures';
import { queryOne } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

const MINUTE = 60_000;
const clock = testClock(new Date('2026-05-04T08:00:00Z'));
let t: TestApp;
let patient: SeededPatient;
let other: SeededPatient;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  patient = await insertPatient(t.db, { firstName: 'Ndapewa', lastName: 'Iipumbu', dateOfBirth: '1988-03-09' });
  other = await insertPatient(t.db, { firstName: 'Tangeni', lastName: 'Amutenya', dateOfBirth: '1975-11-30' });
});
afterAll(async () => {
  await t?.close();
});

const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/patient-portal/me', headers: { cookie } });
const portalReads = async (patientId: number): Promise<number> =>
  (await queryOne<{ n: number }>(
    t.db,
    sql`SELECT count(*)::int AS n FROM audit_logs
          WHERE action = 'VIEW' AND patient_id = ${patientId} AND new_values->>'via' = 'patient-portal'`,
  ))!.n;

/** A patient whose session this worker has cached (one read put it there). */
async function cachedPatient(p: SeededPatient): Promise<string> {
  const cookie = await signInPatient(t, p);
  expect((await me(cookie)).statusCode).toBe(200);
  return cookie;
}

describe('a cached patient session on the portal', () => {
  it('is served from the cache and confirmed by the read itself', async () => {
    const cookie = await cachedPatient(patient);
    const hits = t.app.actorCache.hits;
    const before = await portalReads(patient.id);
    const res = await me(cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ patient: { ncNumber: string } }>().patient.ncNumber).toBe(patient.ncNumber);
    expect(t.app.actorCache.hits).toBe(hits + 1);
    expect(await portalReads(patient.id)).toBe(before + 1);
  });

  it('ends with the session: the next read is a 401 that reads and audits nothing', async () => {
    const cookie = await cachedPatient(patient);
    const before = await portalReads(patient.id);
    await t.db.execute(sql`DELETE FROM sessions WHERE sess->>'kind' = 'patient' AND (sess->>'patientId')::int = ${patient.id}`);
    expect((await me(cookie)).statusCode).toBe(401);
    expect(await portalReads(patient.id)).toBe(before);
  });

  it('ends when the session expires between two reads', async () => {
    const cookie = await cachedPatient(patient);
    const before = await portalReads(patient.id);
    clock.advance(16 * MINUTE); // past the patient session's 15 idle minutes
    expect((await me(cookie)).statusCode).toBe(401);
    expect(await portalReads(patient.id)).toBe(before);
  });

  it('follows a session moved to another patient: the read is of the session as it is now', async () => {
    const cookie = await cachedPatient(patient);
    const otherBefore = await portalReads(other.id);
    await t.db.execute(
      sql`UPDATE sessions SET sess = jsonb_set(sess, '{patientId}', to_jsonb(${other.id}::int))
          WHERE sess->>'kind' = 'patient' AND (sess->>'patientId')::int = ${patient.id}`,
    );
    const res = await me(cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ patient: { ncNumber: string } }>().patient.ncNumber).toBe(other.ncNumber);
    expect(await portalReads(other.id)).toBe(otherBefore + 1);
  });

  it('still refuses a staff session, cached or not (403)', async () => {
    const { cookie } = await signInAs(t, 3);
    expect((await me(cookie)).statusCode).toBe(403);
    const search = await t.app.inject({
      method: 'POST',
      url: '/api/patients/search',
      headers: { cookie },
      payload: { method: 'id-number', idNumber: patient.ncNumber },
    });
    expect(search.statusCode).toBe(200); // the staff actor is now in the cache
    expect((await me(cookie)).statusCode).toBe(403);
  });
});
