// Offline clinic mode's devices (issue 27, decision 061) through the real app: switching offline mode on needs a second
// factor proven recently; the administrators list and revoke devices; a device's routes answer its own user only
// (anyone else, an administrator too, 404 DEVICE_NOT_FOUND) and refuse a revoked device (403 DEVICE_REVOKED); the
// offline set holds the facility's appointments of the next days and the records opened with a live grant; a discard
// is audited once and stores nothing clinical; review tasks are listed and closed by holders of patients.merge.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../../../contracts/constants';
import { testClock } from '../../test/clock';
import { deviceApi, enrolTotp, entryOf, offlineUser, type OfflineUser } from '../../test/offline-fixtures';
import { createPatient } from '../../test/patient-fixtures';
import { auditCount, confirmAccess, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryOne, queryRows } from '../../test/sql';
import { createStaffUser, signIn, signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

const clock = testClock(new Date('2026-11-28T08:00:00Z'));
const FACILITY = 'Onandjokwe Hospital';
let t: TestApp;
let admin: { cookie: string };
let reviewer: { cookie: string };
let nurse: OfflineUser;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  admin = await signInAs(t, ROLE_IDS.admin);
  reviewer = await signInAs(t, ROLE_IDS.healthInformationOfficer);
  nurse = await offlineUser(t, { roleId: ROLE_IDS.nurse, facility: FACILITY });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const devicesRows = async (): Promise<number> =>
  (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM offline_devices`))!.n;

describe('switching offline mode on (POST /api/devices)', () => {
  it('refuses a user without a second factor with 403 OFFLINE_NEEDS_SECOND_FACTOR, storing nothing', async () => {
    const { cookie } = await signInAs(t, ROLE_IDS.doctor);
    const before = [await devicesRows(), await auditCount(t)];
    const res = await t.app.inject({ method: 'POST', url: '/api/devices', headers: { cookie }, payload: { label: 'Laptop' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('OFFLINE_NEEDS_SECOND_FACTOR');
    expect([await devicesRows(), await auditCount(t)]).toEqual(before);
  });

  it('refuses a second factor not proven in the last minutes with 403 REAUTH_REQUIRED', async () => {
    const user = await createStaffUser(t.db, { roleId: ROLE_IDS.doctor });
    const cookie = await signIn(t.app, user.email, user.password);
    await enrolTotp(t, cookie, clock.now());
    clock.advance(11 * 60_000);
    const before = await devicesRows();
    const res = await t.app.inject({ method: 'POST', url: '/api/devices', headers: { cookie }, payload: { label: 'Laptop' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('REAUTH_REQUIRED');
    expect(await devicesRows()).toBe(before);
  });

  it('refuses a staff member without records.read (403 PERMISSION_REQUIRED) and a bad label (400), storing nothing', async () => {
    const receptionist = await signInAs(t, ROLE_IDS.receptionist);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: { cookie: receptionist.cookie },
      payload: { label: 'x' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('PERMISSION_REQUIRED');
    const before = await devicesRows();
    for (const payload of [{ label: '' }, { label: 'a'.repeat(101) }, { label: 'ok', extra: 1 }, {}]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/devices', headers: { cookie: nurse.cookie }, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await devicesRows()).toBe(before);
  });

  it('stores the device for the user and their facility, audited CREATE DEVICE, and answers the limits', async () => {
    const doctor = await offlineUser(t, { facility: FACILITY, label: 'Ward 3 tablet' });
    const row = await queryOne<{ user_id: string; facility: string; label: string; revoked_at: null }>(
      t.db,
      sql`SELECT user_id, facility, label, revoked_at FROM offline_devices WHERE id = ${doctor.deviceId}`,
    );
    expect(row).toEqual({ user_id: doctor.user.id, facility: FACILITY, label: 'Ward 3 tablet', revoked_at: null });
    const audit = await queryOne<{ action: string; new_values: unknown; user_id: string }>(
      t.db,
      sql`SELECT action, new_values, user_id FROM audit_logs WHERE resource_type = 'DEVICE' AND resource_id = ${doctor.deviceId}`,
    );
    expect(audit).toEqual({
      action: 'CREATE',
      user_id: doctor.user.id,
      new_values: { deviceId: doctor.deviceId, label: 'Ward 3 tablet', facility: FACILITY },
    });
  });
});

describe("a device's own routes", () => {
  it('answer anyone but its user, an administrator too, 404 DEVICE_NOT_FOUND on every route, touching nothing', async () => {
    const other = await offlineUser(t);
    const patient = await createPatient(t.db);
    const before = await queryOne(t.db, sql`SELECT last_contact_at FROM offline_devices WHERE id = ${nurse.deviceId}`);
    const audits = await auditCount(t);
    for (const cookie of [other.cookie, admin.cookie]) {
      const api = deviceApi(t, cookie, nurse.deviceId);
      const answers = [
        await api.contact(),
        await api.offlineSet(),
        await api.sync([entryOf('vitals', { id: patient.id }, SAMPLE_INPUTS.vitals, clock.now())]),
        await api.discard({ clientId: randomUUID(), reason: 'Wrong patient' }),
      ];
      for (const res of answers) {
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe('DEVICE_NOT_FOUND');
      }
    }
    // An unknown device is the same answer.
    expect((await deviceApi(t, nurse.cookie, randomUUID()).contact()).json().code).toBe('DEVICE_NOT_FOUND');
    expect(await queryOne(t.db, sql`SELECT last_contact_at FROM offline_devices WHERE id = ${nurse.deviceId}`)).toEqual(before);
    expect(await auditCount(t)).toBe(audits);
    // A signed-out caller and a malformed id are refused before anything.
    expect((await t.app.inject({ method: 'POST', url: `/api/devices/${nurse.deviceId}/contact` })).statusCode).toBe(401);
    expect((await deviceApi(t, nurse.cookie, 'not-a-uuid').contact()).statusCode).toBe(400);
  });

  it('contact updates the last contact and answers active', async () => {
    clock.advance(60_000);
    const res = await deviceApi(t, nurse.cookie, nurse.deviceId).contact();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'active', serverTime: clock.now().toISOString() });
    const row = await queryOne<{ at: string }>(
      t.db,
      sql`SELECT last_contact_at::text AS at FROM offline_devices WHERE id = ${nurse.deviceId}`,
    );
    expect(new Date(row!.at).toISOString()).toBe(clock.now().toISOString());
  });
});

describe('the offline set', () => {
  it("holds the facility's appointments from today for three days and the records opened with a live grant, audited", async () => {
    const doctor = await offlineUser(t, { facility: FACILITY });
    const opened = await createPatient(t.db, { firstName: 'Ndapewa' });
    const notOpened = await createPatient(t.db);
    const old = await createPatient(t.db);
    await confirmAccess(t, doctor.cookie, opened.id);
    // A grant of 9 hours ago has expired: that record is not kept.
    await t.db.execute(sql`INSERT INTO access_grants (user_id, patient_id, consent, granted_at, expires_at)
                           VALUES (${doctor.user.id}, ${old.id}, true, ${new Date(clock.now().getTime() - 9 * 3600_000)},
                                   ${new Date(clock.now().getTime() - 3600_000)})`);
    const day = (offset: number) => new Date(clock.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const api = recordApi(t, doctor.cookie);
    const add = async (date: string, facility: string) =>
      (await api.add('appointments', opened.id, { ...SAMPLE_INPUTS.appointments, status: 'Scheduled', date, facility })).json<{
        id: number;
      }>().id;
    const today = await add(day(0), FACILITY);
    const dayAfterTomorrow = await add(day(2), FACILITY);
    await add(day(3), FACILITY); // too far
    await add(day(-1), FACILITY); // yesterday
    await add(day(0), 'Another clinic');

    const res = await deviceApi(t, doctor.cookie, doctor.deviceId).offlineSet();
    expect(res.statusCode).toBe(200);
    const set = res.json<{ appointments: { appointmentId: number; patientId: number; reason: string }[]; patients: { id: number }[] }>();
    expect(set.appointments.map((a) => a.appointmentId)).toEqual([today, dayAfterTomorrow]);
    expect(set.appointments[0]).toMatchObject({ patientId: opened.id, patientName: 'Ndapewa Hamutenya', reason: 'Follow-up consultation' });
    expect(set.patients.map((p) => p.id)).toEqual([opened.id]);
    expect(set.patients.map((p) => p.id)).not.toContain(notOpened.id);
    const audit = await queryOne<{ new_values: unknown }>(
      t.db,
      sql`SELECT new_values FROM audit_logs WHERE resource_type = 'DEVICE' AND action = 'VIEW' AND resource_id = ${doctor.deviceId}`,
    );
    expect(audit!.new_values).toEqual({
      view: 'OFFLINE_SET',
      deviceId: doctor.deviceId,
      patientIds: [opened.id],
      appointmentPatientIds: [opened.id],
    });
  });
});

describe('revocation (users.approve)', () => {
  it('lists devices newest first, paged; revokes one (audited once); the device is refused from then on', async () => {
    clock.advance(1000); // the newest device
    const user = await offlineUser(t, { facility: FACILITY, label: 'To be revoked' });
    const list = await t.app.inject({ method: 'GET', url: '/api/devices', headers: { cookie: admin.cookie } });
    expect(list.statusCode).toBe(200);
    const devices = list.json<{ devices: { id: string; createdAt: string; status: string; userName: string }[] }>().devices;
    expect(devices[0]).toMatchObject({ id: user.deviceId, status: 'active', userName: 'Test Role3' });
    const times = devices.map((d) => d.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    // The wrong person: a clinician may not list or revoke.
    for (const req of [
      { method: 'GET' as const, url: '/api/devices' },
      { method: 'POST' as const, url: `/api/devices/${user.deviceId}/revoke`, payload: {} },
    ])
      expect((await t.app.inject({ ...req, headers: { cookie: nurse.cookie } })).statusCode).toBe(403);

    const revoke = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/devices/${user.deviceId}/revoke`,
        headers: { cookie: admin.cookie },
        payload: { reason: 'Laptop reported stolen' },
      });
    const first = await revoke();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ id: user.deviceId, status: 'revoked', revokedAt: clock.now().toISOString() });
    const audits = await auditCount(t);
    expect((await revoke()).json()).toMatchObject({ status: 'revoked' });
    expect(await auditCount(t)).toBe(audits);
    const rows = await queryRows<{ new_values: unknown }>(
      t.db,
      sql`SELECT new_values FROM audit_logs WHERE resource_type = 'DEVICE' AND action = 'UPDATE' AND resource_id = ${user.deviceId}`,
    );
    expect(rows).toEqual([{ new_values: { deviceId: user.deviceId, revoked: true, deviceUserId: user.user.id } }]);
    expect(
      (
        await t.app.inject({ method: 'POST', url: `/api/devices/${randomUUID()}/revoke`, headers: { cookie: admin.cookie }, payload: {} })
      ).json().code,
    ).toBe('DEVICE_NOT_FOUND');

    const api = deviceApi(t, user.cookie, user.deviceId);
    const contact = await api.contact();
    expect(contact.statusCode).toBe(200);
    expect(contact.json().status).toBe('revoked');
    const patient = await createPatient(t.db);
    await confirmAccess(t, user.cookie, patient.id);
    const before = [await auditCount(t), (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM vitals`))!.n];
    for (const res of [
      await api.offlineSet(),
      await api.sync([entryOf('vitals', { id: patient.id }, SAMPLE_INPUTS.vitals, clock.now())]),
      await api.discard({ clientId: randomUUID(), reason: 'Not needed' }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('DEVICE_REVOKED');
    }
    expect([await auditCount(t), (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM vitals`))!.n]).toEqual(before);
  });

  it('pages by cursor, each device once, newest first across pages, and refuses a cursor it did not give out', async () => {
    // More devices than a page holds, some made at the same moment (the id orders those).
    await t.db.execute(sql`INSERT INTO offline_devices (id, user_id, facility, label, created_at, last_contact_at)
                           SELECT gen_random_uuid(), ${nurse.user.id}, ${FACILITY}, 'Seeded', ${clock.now()}::timestamptz - (i / 3) * interval '1 second', now()
                             FROM generate_series(1, 60) AS i`);
    const seen: { id: string; createdAt: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/api/devices${cursor ? `?cursor=${cursor}` : ''}`;
      const page: { devices: { id: string; createdAt: string }[]; nextCursor: string | null } = (
        await t.app.inject({ method: 'GET', url, headers: { cookie: admin.cookie } })
      ).json();
      seen.push(...page.devices);
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen.map((d) => d.id)).size).toBe(seen.length);
    expect(seen.length).toBe(await devicesRows());
    const times = seen.map((d) => d.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const bad = await t.app.inject({ method: 'GET', url: '/api/devices?cursor=bm9wZQ', headers: { cookie: admin.cookie } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('discarding a queued write', () => {
  it('is audited once with its clientId, kind and patient, stores nothing clinical, and is refused for a saved write', async () => {
    const api = deviceApi(t, nurse.cookie, nurse.deviceId);
    const patient = await createPatient(t.db);
    const clientId = randomUUID();
    const body = { clientId, reason: 'Entered for the wrong patient', kind: 'vitals', patientId: patient.id };
    const vitals = async () => (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM vitals`))!.n;
    const before = await vitals();
    expect((await api.discard(body)).statusCode).toBe(204);
    expect((await api.discard(body)).statusCode).toBe(204);
    expect(await vitals()).toBe(before);
    const rows = await queryRows<{ action: string; patient_id: number; new_values: unknown }>(
      t.db,
      sql`SELECT action, patient_id, new_values FROM audit_logs WHERE resource_type = 'DEVICE' AND new_values->>'discarded' = ${clientId}`,
    );
    expect(rows).toEqual([
      { action: 'DELETE', patient_id: patient.id, new_values: { discarded: clientId, kind: 'vitals', deviceId: nurse.deviceId } },
    ]);
    // Bad input: a 400, nothing written.
    const audits = await auditCount(t);
    for (const payload of [
      { clientId, reason: '' },
      { clientId: 'x', reason: 'r' },
      { clientId: randomUUID(), reason: 'r', kind: 'pets' },
    ])
      expect((await api.discard(payload)).statusCode, JSON.stringify(payload)).toBe(400);
    expect(await auditCount(t)).toBe(audits);

    // A write the server saved already cannot be discarded.
    await confirmAccess(t, nurse.cookie, patient.id);
    const entry = entryOf('vitals', { id: patient.id }, SAMPLE_INPUTS.vitals, clock.now());
    expect((await api.sync([entry])).json().results[0].outcome).toBe('saved');
    const late = await api.discard({ clientId: entry.clientId, reason: 'Too late' });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('OFFLINE_WRITE_SAVED');
  });
});

describe('review tasks (patients.merge)', () => {
  it('are listed and closed (audited once), and refused to a clinician', async () => {
    const doctor = await offlineUser(t);
    const patient = await createPatient(t.db);
    await confirmAccess(t, doctor.cookie, patient.id);
    // Someone else adds a diagnosis; the device, which never read the record, adds one too: a review task.
    const other = await signInAs(t, ROLE_IDS.doctor);
    await confirmAccess(t, other.cookie, patient.id);
    expect((await recordApi(t, other.cookie).add('diagnoses', patient.id, SAMPLE_INPUTS.diagnoses)).statusCode).toBe(201);
    const synced = await deviceApi(t, doctor.cookie, doctor.deviceId).sync([
      entryOf('diagnoses', { id: patient.id }, { ...SAMPLE_INPUTS.diagnoses, condition: 'Hypertension' }, clock.now()),
    ]);
    const reviewId = synced.json().results[0].reviewId as number;
    expect(reviewId).toBeGreaterThan(0);

    for (const req of [
      { method: 'GET' as const, url: '/api/offline-reviews' },
      { method: 'POST' as const, url: `/api/offline-reviews/${reviewId}/close`, payload: {} },
    ])
      expect((await t.app.inject({ ...req, headers: { cookie: doctor.cookie } })).statusCode).toBe(403);

    const list = await t.app.inject({ method: 'GET', url: '/api/offline-reviews', headers: { cookie: reviewer.cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.json().reviews[0]).toMatchObject({
      id: reviewId,
      reason: 'RECORD_CHANGED_SINCE_SEEN',
      patientId: patient.id,
      kind: 'diagnoses',
      deviceId: doctor.deviceId,
      closedAt: null,
    });
    const close = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/offline-reviews/${reviewId}/close`,
        headers: { cookie: reviewer.cookie },
        payload: { note: 'Both diagnoses are right' },
      });
    const closed = await close();
    expect(closed.statusCode).toBe(200);
    expect(closed.json().closedAt).toBe(clock.now().toISOString());
    const audits = await auditCount(t);
    expect((await close()).statusCode).toBe(200);
    expect(await auditCount(t)).toBe(audits);
    const rows = await queryRows<{ action: string; patient_id: number; new_values: unknown }>(
      t.db,
      sql`SELECT action, patient_id, new_values FROM audit_logs WHERE resource_type = 'OFFLINE_REVIEW' AND action = 'UPDATE' AND resource_id = ${String(reviewId)}`,
    );
    expect(rows).toEqual([
      {
        action: 'UPDATE',
        patient_id: patient.id,
        new_values: { closed: true, reason: 'RECORD_CHANGED_SINCE_SEEN', kind: 'diagnoses', rowId: expect.any(Number) },
      },
    ]);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/offline-reviews/99999999/close',
      headers: { cookie: reviewer.cookie },
      payload: {},
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('OFFLINE_REVIEW_NOT_FOUND');
  });
});
