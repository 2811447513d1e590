// Volume alerts (issue 10 items 1 and 8; docs/decisions/011-rate-limits-and-volume-alerts.md), through the real app:
// bulk search and break-the-glass volume raise one security event each, listed in the privacy review's alerts; the
// grant-volume check that re-authentication uses agrees with the alert.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { VolumeAlert } from '../../../contracts/privacy-review';
import { query } from '../../test/audit-fixtures';
import { breakGlass, searchById, withConsent } from '../../test/privacy-fixtures';
import { createPatient } from '../../test/patient-fixtures';
import { createSystemClient } from '../../test/api-client-fixtures';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { readReauthRule, reauthSlotValues } from '../auth/mfa.repository';
import { loadConfig } from '../../config';

const limits = { ...loadConfig({}).alerts, bulkSearchPatients: 3, bulkSearchMinutes: 10, bulkSearchPatientsPerDay: 6, grantsPerHour: 2 };
let t: TestApp;
let auditor: string;

beforeAll(async () => {
  t = await createTestApp({ alerts: limits });
  auditor = (await signInAs(t, 6)).cookie;
});
afterAll(async () => {
  await t?.close();
});

async function alerts(cookie = auditor): Promise<VolumeAlert[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/privacy-reviews/alerts?pageSize=100', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json().items;
}
const eventsOf = async (userId: string, type: string): Promise<number> =>
  (
    await query<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM security_events WHERE user_id = ${userId} AND event_type = ${type}`)
  )[0]!.n;

describe('bulk search alert', () => {
  it('a user whose searches return more than N distinct patients gets one alert, shown to reviewers, that grows (issue 21 item 7)', async () => {
    const { cookie, user } = await signInAs(t, 4);
    const patients = [];
    for (let i = 0; i < 5; i++) patients.push(await createPatient(t.db));
    // The same patient twice counts once.
    await searchById(t.app, cookie, patients[0]!.idNumber);
    await searchById(t.app, cookie, patients[0]!.idNumber);
    await searchById(t.app, cookie, patients[1]!.idNumber);
    await searchById(t.app, cookie, patients[2]!.idNumber);
    expect(await eventsOf(user.id, 'BULK_SEARCH_ALERT')).toBe(0);
    await searchById(t.app, cookie, patients[3]!.idNumber);
    expect(await eventsOf(user.id, 'BULK_SEARCH_ALERT')).toBe(1);
    await searchById(t.app, cookie, patients[4]!.idNumber); // one alert per window, whose count grows
    await searchById(t.app, cookie, patients[0]!.idNumber); // found again in the window: counted once
    expect(await eventsOf(user.id, 'BULK_SEARCH_ALERT')).toBe(1);

    const mine = (await alerts()).filter((a) => a.user?.id === user.id);
    expect(mine).toEqual([
      expect.objectContaining({
        type: 'BULK_SEARCH_ALERT',
        count: 5,
        escalated: false,
        threshold: 3,
        minutes: 10,
        user: { id: user.id, name: expect.any(String) },
      }),
    ]);
  });
});

describe('bulk search alert: what counts (decision 028)', () => {
  const fuzzyFor = (cookie: string, fullName: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/patients/search',
      headers: { cookie },
      payload: { method: 'fuzzy-name', fullName, ageRangeMin: 0, ageRangeMax: 120 },
    });

  it('counts the patients a fuzzy search found with those of exact searches', async () => {
    const { cookie, user } = await signInAs(t, 4);
    const twins = [];
    for (let i = 0; i < 2; i++) twins.push(await createPatient(t.db, { firstName: 'Ndeshipanda', lastName: 'Hangula' }));
    const a = await createPatient(t.db);
    const b = await createPatient(t.db);
    await searchById(t.app, cookie, a.idNumber);
    await searchById(t.app, cookie, b.idNumber);
    expect(await eventsOf(user.id, 'BULK_SEARCH_ALERT')).toBe(0);
    const found = await fuzzyFor(cookie, 'Ndeshipanda Hangula');
    expect(found.statusCode).toBe(200);
    expect(found.json().map((p: { id: number }) => p.id)).toEqual(expect.arrayContaining(twins.map((p) => p.id)));
    expect(await eventsOf(user.id, 'BULK_SEARCH_ALERT')).toBe(1);
  });

  it('does not count patients found before the window, nor searches that found nobody', async () => {
    const { cookie, user } = await signInAs(t, 4);
    const old = [];
    for (let i = 0; i < 3; i++) old.push(await createPatient(t.db));
    // Found 11 minutes ago: outside the 10-minute window.
    for (const p of old) {
      await t.db.execute(
        sql`INSERT INTO search_volume (user_id, patient_id, last_seen) VALUES (${user.id}, ${p.id}, now() - interval '11 minutes')`,
      );
    }
    for (let i = 0; i < 5; i++) await searchById(t.app, cookie, '0000000000' + String(i));
    const now = [];
    for (let i = 0; i < 3; i++) now.push(await createPatient(t.db));
    for (const p of now) await searchById(t.app, cookie, p.idNumber);
    expect(await eventsOf(user.id, 'BULK_SEARCH_ALERT')).toBe(0);
    await searchById(t.app, cookie, old[0]!.idNumber); // found again now: it counts again
    expect(await eventsOf(user.id, 'BULK_SEARCH_ALERT')).toBe(1);
  });
});

describe('bulk search alert: growth, escalation and the daily threshold (issue 21 item 7, decision 036)', () => {
  /** Moves the user's found patients out of the window, as if the harvest were paced over several windows. */
  const pace = (userId: string) =>
    t.db.execute(sql`UPDATE search_volume SET last_seen = now() - interval '11 minutes' WHERE user_id = ${userId}`);
  const alertsOf = async (userId: string) => (await alerts()).filter((a) => a.user?.id === userId);

  it('the open alert keeps counting new patients and is escalated past 4 times its threshold', async () => {
    const { cookie, user } = await signInAs(t, 4);
    const patients = [];
    for (let i = 0; i < 13; i++) patients.push(await createPatient(t.db));
    for (const p of patients.slice(0, 4)) await searchById(t.app, cookie, p.idNumber);
    const [first] = await alertsOf(user.id);
    expect(first).toMatchObject({ type: 'BULK_SEARCH_ALERT', count: 4, escalated: false });
    for (const p of patients.slice(4, 12)) await searchById(t.app, cookie, p.idNumber);
    expect((await alertsOf(user.id)).find((a) => a.type === 'BULK_SEARCH_ALERT')).toMatchObject({ count: 12, escalated: false });
    await searchById(t.app, cookie, patients[12]!.idNumber);
    const grown = (await alertsOf(user.id)).filter((a) => a.type === 'BULK_SEARCH_ALERT');
    expect(grown).toEqual([expect.objectContaining({ id: first!.id, count: 13, escalated: true })]);
    expect(grown[0]!.updatedAt >= first!.updatedAt).toBe(true);
  });

  it('paced under the window threshold, more than the daily threshold within 24 hours raises BULK_SEARCH_DAILY_ALERT, which grows', async () => {
    const { cookie, user } = await signInAs(t, 4);
    const patients = [];
    for (let i = 0; i < 9; i++) patients.push(await createPatient(t.db));
    // Three windows of three patients each: never more than 3 within 10 minutes.
    for (const p of patients.slice(0, 3)) await searchById(t.app, cookie, p.idNumber);
    await pace(user.id);
    for (const p of patients.slice(3, 6)) await searchById(t.app, cookie, p.idNumber);
    await pace(user.id);
    expect(await eventsOf(user.id, 'BULK_SEARCH_DAILY_ALERT')).toBe(0);
    await searchById(t.app, cookie, patients[6]!.idNumber);
    expect(await eventsOf(user.id, 'BULK_SEARCH_ALERT')).toBe(0);
    expect(await eventsOf(user.id, 'BULK_SEARCH_DAILY_ALERT')).toBe(1);
    expect(await alertsOf(user.id)).toEqual([
      expect.objectContaining({ type: 'BULK_SEARCH_DAILY_ALERT', count: 7, threshold: 6, minutes: 1440 }),
    ]);
    await searchById(t.app, cookie, patients[7]!.idNumber);
    await searchById(t.app, cookie, patients[0]!.idNumber); // found earlier today: not new to the day
    expect(await eventsOf(user.id, 'BULK_SEARCH_DAILY_ALERT')).toBe(1);
    expect(await alertsOf(user.id)).toEqual([expect.objectContaining({ type: 'BULK_SEARCH_DAILY_ALERT', count: 8 })]);
  });
});

describe('break-the-glass volume', () => {
  it('more than N grants in an hour raise GRANT_VOLUME_ALERT and put that user only over the re-authentication volume', async () => {
    // The re-authentication rule the grant's statement runs (mfa.repository), with the volume counted.
    const overVolume = async (userId: string): Promise<boolean> =>
      (await readReauthRule(t.db, reauthSlotValues(userId, null, new Date(), { breakGlass: false, grantsPerHour: limits.grantsPerHour })))
        .overVolume;
    const { cookie, user } = await signInAs(t, 3);
    const other = await signInAs(t, 3);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await createPatient(t.db)).id);
    await breakGlass(t.app, cookie, ids[0]!, 'bulk export');
    await withConsent(t.app, cookie, ids[1]!);
    expect(await overVolume(user.id)).toBe(false);
    expect(await eventsOf(user.id, 'GRANT_VOLUME_ALERT')).toBe(0);
    await breakGlass(t.app, cookie, ids[2]!, 'bulk export');
    expect(await overVolume(user.id)).toBe(true);
    expect(await overVolume(other.user.id)).toBe(false);
    expect(await eventsOf(user.id, 'GRANT_VOLUME_ALERT')).toBe(1);
    const mine = (await alerts()).filter((a) => a.user?.id === user.id);
    expect(mine).toEqual([expect.objectContaining({ type: 'GRANT_VOLUME_ALERT', count: 3, threshold: 2, minutes: 60 })]);
  });
});

describe("grant-volume alert in the grant's own statement (issue 29)", () => {
  it('a refused grant counts nothing and raises nothing', async () => {
    const { cookie, user } = await signInAs(t, 3);
    for (let i = 0; i < 2; i++) await withConsent(t.app, cookie, (await createPatient(t.db)).id);
    // Two grants: at the threshold. An unknown patient is refused with 404; nothing is stored, nothing raised.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/patients/999999999/access',
      headers: { cookie },
      payload: { consent: true },
    });
    expect(refused.statusCode).toBe(404);
    expect(await eventsOf(user.id, 'GRANT_VOLUME_ALERT')).toBe(0);
    await withConsent(t.app, cookie, (await createPatient(t.db)).id);
    expect(await eventsOf(user.id, 'GRANT_VOLUME_ALERT')).toBe(1);
  });

  it("a system client's FHIR $access grants raise it under the client", async () => {
    const { token, userId } = await createSystemClient(t, 'Volume Lab', ['system/Patient.read']);
    const consent = { resourceType: 'Parameters', parameter: [{ name: 'consent', valueBoolean: true }] };
    for (let i = 0; i < 3; i++) {
      const patient = await createPatient(t.db);
      const res = await t.app.inject({
        method: 'POST',
        url: `/fhir/R4/Patient/${patient.id}/$access`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json' },
        payload: JSON.stringify(consent),
      });
      expect(res.statusCode).toBe(201);
      expect(await eventsOf(userId, 'GRANT_VOLUME_ALERT')).toBe(i < 2 ? 0 : 1);
    }
    const theirs = (await alerts()).filter((a) => a.user?.id === userId);
    expect(theirs).toEqual([expect.objectContaining({ type: 'GRANT_VOLUME_ALERT', count: 3, threshold: 2, minutes: 60 })]);
  });
});

describe('GET /api/privacy-reviews/alerts', () => {
  it.each([
    [3, 'doctor'],
    [2, 'administrator'],
    [4, 'nurse'],
  ])('refuses role %i (%s) with 403', async (roleId) => {
    const { cookie } = await signInAs(t, roleId);
    const res = await t.app.inject({ method: 'GET', url: '/api/privacy-reviews/alerts', headers: { cookie } });
    expect(res.statusCode).toBe(403);
  });

  it('refuses a signed-out caller (401) and bad paging (400)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/privacy-reviews/alerts' })).statusCode).toBe(401);
    const res = await t.app.inject({ method: 'GET', url: '/api/privacy-reviews/alerts?page=0', headers: { cookie: auditor } });
    expect(res.statusCode).toBe(400);
  });
});
