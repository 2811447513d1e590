// Offline sync (issue 27, decision 061) through the real app: each queued write applied on its own with its audit row
// (deviceId and deviceTime beside the server's timestamp), idempotent by clientId (rows and audit rows counted); the
// grant rule at the device's time; a refused body; a joined patient's survivor; a record changed since the device saw
// it and unconfirmed warnings kept with a review task; registrations through the matcher, with the entries naming them;
// offline opens in the patient's access history; and the same batch sent twice, one after the other and at once.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATC_SYSTEM } from '../../../contracts/codes';
import { ROLE_IDS } from '../../../contracts/constants';
import type { OfflineWrite, SyncResponse } from '../../../contracts/offline';
import { testClock } from '../../test/clock';
import { joinPatients } from '../../test/join-fixtures';
import { deviceApi, entryOf, offlineUser, type OfflineUser } from '../../test/offline-fixtures';
import { createPatient } from '../../test/patient-fixtures';
import { auditCount, confirmAccess, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryOne, queryRows } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

const clock = testClock(new Date('2026-11-28T08:00:00Z'));
const HOUR = 3600_000;
let t: TestApp;
let doctor: OfflineUser;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  doctor = await offlineUser(t, { permissions: ['patients.create'] });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const sync = async (
  who: OfflineUser,
  writes: OfflineWrite[],
  accessLog: { clientId: string; patientId: number; deviceTime: string }[] = [],
) => {
  const res = await deviceApi(t, who.cookie, who.deviceId).sync(writes, accessLog);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SyncResponse>();
};
const count = async (table: string, where = sql`true`): Promise<number> =>
  (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${where}`))!.n;
const ago = (ms: number): Date => new Date(clock.now().getTime() - ms);
const auditOf = (clientId: string) =>
  queryRows<{ action: string; resource_type: string; patient_id: number; new_values: Record<string, unknown>; timestamp: string }>(
    t.db,
    sql`SELECT action, resource_type, patient_id, new_values, timestamp::text FROM audit_logs WHERE new_values->>'clientId' = ${clientId} ORDER BY id`,
  );

async function withRecord(who: OfflineUser = doctor): Promise<number> {
  const patient = await createPatient(t.db);
  await confirmAccess(t, who.cookie, patient.id);
  return patient.id;
}

describe('an entry', () => {
  it('is stored with its audit row naming the device and its time, and the same write again stores nothing more', async () => {
    const patientId = await withRecord();
    const deviceTime = ago(2 * HOUR);
    const entry = entryOf('vitals', { id: patientId }, SAMPLE_INPUTS.vitals, deviceTime);
    const first = await sync(doctor, [entry]);
    expect(first.results).toEqual([
      { clientId: entry.clientId, outcome: 'saved', patientId, id: expect.any(Number), reviewId: null, code: null },
    ]);
    const rows = await auditOf(entry.clientId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'CREATE', resource_type: 'VITALS', patient_id: patientId });
    expect(rows[0]!.new_values).toEqual({
      version: 1,
      changed: [],
      deviceId: doctor.deviceId,
      deviceTime: deviceTime.toISOString(),
      clientId: entry.clientId,
    });
    expect(new Date(rows[0]!.timestamp).getTime()).toBeGreaterThanOrEqual(clock.now().getTime());

    const before = [await count('vitals', sql`patient_id = ${patientId}`), await auditCount(t)];
    clock.advance(60_000);
    const again = await sync(doctor, [entry]);
    expect(again.results).toEqual(first.results);
    expect([await count('vitals', sql`patient_id = ${patientId}`), await auditCount(t)]).toEqual(before);
    expect(await auditOf(entry.clientId)).toHaveLength(1);
  });

  it('sent again under its clientId with another body is needs_attention IDEMPOTENCY_KEY_REUSED, the first one kept', async () => {
    const patientId = await withRecord();
    const entry = entryOf('vitals', { id: patientId }, SAMPLE_INPUTS.vitals, ago(HOUR));
    expect((await sync(doctor, [entry])).results[0]!.outcome).toBe('saved');
    const changed = { ...entry, body: { ...SAMPLE_INPUTS.vitals, systolic: 180 } } as OfflineWrite;
    expect((await sync(doctor, [changed])).results[0]).toMatchObject({ outcome: 'needs_attention', code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await queryRows(t.db, sql`SELECT systolic FROM vitals WHERE patient_id = ${patientId}`)).toEqual([{ systolic: 128 }]);
  });

  it('is refused (OFFLINE_NO_GRANT) without a grant at its time, too old or in the future; a grant that covered it is enough', async () => {
    const noGrant = (await createPatient(t.db)).id;
    const expired = (await createPatient(t.db)).id;
    // A grant from 10 hours ago to 2 hours ago: it covered an entry made 5 hours ago, not one made 1 hour ago.
    await t.db.execute(sql`INSERT INTO access_grants (user_id, patient_id, consent, granted_at, expires_at)
                           VALUES (${doctor.user.id}, ${expired}, true, ${ago(10 * HOUR)}, ${ago(2 * HOUR)})`);
    const live = await withRecord();
    const writes = [
      entryOf('vitals', { id: noGrant }, SAMPLE_INPUTS.vitals, ago(HOUR)),
      entryOf('vitals', { id: expired }, SAMPLE_INPUTS.vitals, ago(HOUR)),
      entryOf('vitals', { id: expired }, SAMPLE_INPUTS.vitals, ago(5 * HOUR)),
      entryOf('vitals', { id: live }, SAMPLE_INPUTS.vitals, ago(73 * HOUR)),
      entryOf('vitals', { id: live }, SAMPLE_INPUTS.vitals, new Date(clock.now().getTime() + HOUR)),
      // A device clock a little ahead is allowed.
      entryOf('vitals', { id: live }, SAMPLE_INPUTS.vitals, new Date(clock.now().getTime() + 2 * 60_000)),
    ];
    const before = await count('vitals');
    const { results } = await sync(doctor, writes);
    expect(results.map((r) => [r.outcome, r.code])).toEqual([
      ['needs_attention', 'OFFLINE_NO_GRANT'],
      ['needs_attention', 'OFFLINE_NO_GRANT'],
      ['saved', null],
      ['needs_attention', 'OFFLINE_NO_GRANT'],
      ['needs_attention', 'OFFLINE_NO_GRANT'],
      ['saved', null],
    ]);
    expect(await count('vitals')).toBe(before + 2);
    expect(await count('vitals', sql`patient_id = ${noGrant}`)).toBe(0);
  });

  it('with a body the kind refuses is needs_attention VALIDATION_FAILED with the issues; the others of the batch are stored', async () => {
    const patientId = await withRecord();
    const bad = entryOf('vitals', { id: patientId }, { ...SAMPLE_INPUTS.vitals, systolic: 'high' }, ago(HOUR));
    const good = entryOf('allergies', { id: patientId }, SAMPLE_INPUTS.allergies, ago(HOUR));
    const { results } = await sync(doctor, [bad, good]);
    expect(results[0]).toMatchObject({
      outcome: 'needs_attention',
      code: 'VALIDATION_FAILED',
      issues: [expect.objectContaining({ path: 'systolic' })],
    });
    expect(results[1]).toMatchObject({ outcome: 'saved', patientId });
    expect(await count('vitals', sql`patient_id = ${patientId}`)).toBe(0);
    expect(await auditOf(bad.clientId)).toHaveLength(0);
  });

  it('is refused to a staff member without records.write (PERMISSION_REQUIRED)', async () => {
    const bls = await offlineUser(t, { roleId: ROLE_IDS.basicLifeSupport });
    const patientId = await withRecord(bls);
    const { results } = await sync(bls, [entryOf('vitals', { id: patientId }, SAMPLE_INPUTS.vitals, ago(HOUR))]);
    expect(results[0]).toMatchObject({ outcome: 'needs_attention', code: 'PERMISSION_REQUIRED' });
    expect(await count('vitals', sql`patient_id = ${patientId}`)).toBe(0);
  });

  it('goes to the survivor when its patient was joined into another record meanwhile', async () => {
    const merged = await withRecord();
    const survivor = await withRecord();
    await joinPatients(t, survivor, merged);
    const entry = entryOf('allergies', { id: merged }, SAMPLE_INPUTS.allergies, ago(HOUR));
    const { results } = await sync(doctor, [entry]);
    expect(results[0]).toMatchObject({ outcome: 'saved', patientId: survivor });
    expect(await count('allergies', sql`id = ${results[0]!.id} AND patient_id = ${survivor}`)).toBe(1);
    expect((await auditOf(entry.clientId))[0]!.patient_id).toBe(survivor);
  });

  it('on a record someone else changed since the device saw it is stored and a review task opened; never overwritten', async () => {
    const patientId = await withRecord();
    const api = recordApi(t, doctor.cookie);
    const cursor = (await api.changes(patientId)).json<{ cursor: string }>().cursor;
    // Unchanged since the cursor (or changed by this user only): saved.
    expect((await api.add('diagnoses', patientId, SAMPLE_INPUTS.diagnoses)).statusCode).toBe(201);
    const calm = entryOf('diagnoses', { id: patientId }, { ...SAMPLE_INPUTS.diagnoses, condition: 'Asthma' }, ago(HOUR), cursor);
    expect((await sync(doctor, [calm])).results[0]!.outcome).toBe('saved');

    const other = await signInAs(t, ROLE_IDS.doctor);
    await confirmAccess(t, other.cookie, patientId);
    const theirs = (await recordApi(t, other.cookie).add('diagnoses', patientId, { ...SAMPLE_INPUTS.diagnoses, condition: 'Gout' })).json<{
      id: number;
    }>();
    const entry = entryOf('diagnoses', { id: patientId }, { ...SAMPLE_INPUTS.diagnoses, condition: 'Hypertension' }, ago(HOUR), cursor);
    const { results } = await sync(doctor, [entry]);
    expect(results[0]).toMatchObject({ outcome: 'saved_for_review', patientId, reviewId: expect.any(Number) });
    const review = await queryOne(
      t.db,
      sql`SELECT reason, patient_id, kind, row_id, device_id::text FROM offline_reviews WHERE id = ${results[0]!.reviewId}`,
    );
    expect(review).toEqual({
      reason: 'RECORD_CHANGED_SINCE_SEEN',
      patient_id: patientId,
      kind: 'diagnoses',
      row_id: results[0]!.id,
      device_id: doctor.deviceId,
    });
    // Both kept: the other doctor's row unchanged.
    const stored = await queryRows<{ id: number; condition: string; version: number }>(
      t.db,
      sql`SELECT id, condition, version FROM diagnoses WHERE patient_id = ${patientId} ORDER BY id`,
    );
    expect(stored.find((r) => r.id === theirs.id)).toEqual({ id: theirs.id, condition: 'Gout', version: 1 });
    expect(stored.map((r) => r.condition)).toContain('Hypertension');
    expect((await auditOf(entry.clientId))[0]!.new_values.reviewId).toBe(results[0]!.reviewId);
    // Sent again: the same answer, the review task too, and no second task.
    expect((await sync(doctor, [entry])).results).toEqual(results);
    expect(await count('offline_reviews', sql`patient_id = ${patientId}`)).toBe(1);
  });

  it('that the kind would warn about online is stored, with a review task naming the warnings', async () => {
    const patientId = await withRecord();
    const amoxicillin = { ...SAMPLE_INPUTS.medications, name: 'Amoxicillin', code: 'J01CA04', codeSystem: ATC_SYSTEM };
    const first = entryOf('medications', { id: patientId }, amoxicillin, ago(2 * HOUR));
    const second = entryOf('medications', { id: patientId }, { ...amoxicillin, dosage: '250mg' }, ago(HOUR));
    const { results } = await sync(doctor, [first, second]);
    expect(results.map((r) => r.outcome)).toEqual(['saved', 'saved_for_review']);
    const review = await queryOne(t.db, sql`SELECT reason, warnings FROM offline_reviews WHERE id = ${results[1]!.reviewId}`);
    expect(review).toEqual({ reason: 'WARNINGS_NOT_CONFIRMED', warnings: ['DUPLICATE_ENTRY'] });
    expect(await count('medications', sql`patient_id = ${patientId}`)).toBe(2);
    expect((await auditOf(second.clientId))[0]!.new_values.unconfirmed).toEqual(['DUPLICATE_ENTRY']);
    // Not counted as a confirmed override.
    expect(await count('medicine_check_overrides', sql`patient_id = ${patientId}`)).toBe(0);
  });
});

describe('a registration', () => {
  const person = (firstName: string, lastName: string, dateOfBirth = '1991-07-02') => ({
    firstName,
    lastName,
    dateOfBirth,
    sex: 'Male',
    contactNumber: '',
    address: 'Erf 12, Ongwediva',
    nextOfKin: '',
    nextOfKinContact: '',
  });
  const registration = (body: Record<string, unknown>, deviceTime = ago(HOUR)): OfflineWrite =>
    ({ type: 'patient', clientId: randomUUID(), deviceTime: deviceTime.toISOString(), body }) as OfflineWrite;

  it('stores a provisional patient once, gives its registrar a grant, and takes the entries naming it', async () => {
    const reg = registration(person('Shilongo', 'Iipumbu'));
    const entry = entryOf('vitals', { clientId: reg.clientId }, SAMPLE_INPUTS.vitals, ago(HOUR - 60_000));
    const waiting = entryOf('allergies', { clientId: randomUUID() }, SAMPLE_INPUTS.allergies, ago(HOUR));
    const patients = await count('patients');
    const { results } = await sync(doctor, [reg, entry, waiting]);
    expect(results[0]).toMatchObject({ clientId: reg.clientId, outcome: 'saved', reviewId: null });
    const patientId = results[0]!.patientId!;
    expect(results[1]).toMatchObject({ outcome: 'saved', patientId });
    expect(results[2]).toMatchObject({ outcome: 'waiting', patientId: null });
    expect(await count('patients')).toBe(patients + 1);
    expect(await count('offline_registrations', sql`patient_id = ${patientId}`)).toBe(1);
    expect(await count('access_grants', sql`patient_id = ${patientId} AND user_id = ${doctor.user.id}`)).toBe(1);
    const rows = await auditOf(reg.clientId);
    expect(rows.map((r) => [r.action, r.resource_type, r.patient_id])).toEqual([
      ['CREATE', 'PATIENT', patientId],
      ['VIEW', 'PATIENT', patientId],
    ]);
    expect(rows[0]!.new_values).toMatchObject({
      provisional: true,
      deviceId: doctor.deviceId,
      clientId: reg.clientId,
      firstName: 'Shilongo',
    });
    expect(rows[1]!.new_values).toMatchObject({ access: 'GRANTED', registeredOffline: true, deviceTime: reg.deviceTime });

    // Sent again with an entry naming it in a later batch: one patient, one audit row each, the entry stored.
    const later = entryOf('allergies', { clientId: reg.clientId }, SAMPLE_INPUTS.allergies, ago(30 * 60_000));
    const audits = await auditCount(t);
    const again = await sync(doctor, [reg, entry, later]);
    expect(again.results.slice(0, 2)).toEqual(results.slice(0, 2));
    expect(again.results[2]).toMatchObject({ outcome: 'saved', patientId });
    expect(await count('patients')).toBe(patients + 1);
    expect(await auditCount(t)).toBe(audits + 1);
  });

  it('that looks like a known patient is stored, its pair queued for review and a review task opened', async () => {
    const known = await createPatient(t.db, { firstName: 'Penda', lastName: 'Nakale', dateOfBirth: '1975-01-20', sex: 'Female' });
    const reg = registration({ ...person('Penda', 'Nakale', '1975-01-20'), sex: 'Female' });
    const { results } = await sync(doctor, [reg]);
    expect(results[0]).toMatchObject({ outcome: 'saved_for_review', reviewId: expect.any(Number) });
    const patientId = results[0]!.patientId!;
    expect(patientId).not.toBe(known.id);
    const [lo, hi] = known.id < patientId ? [known.id, patientId] : [patientId, known.id];
    expect(await count('duplicate_pairs', sql`patient_a = ${lo} AND patient_b = ${hi} AND status = 'open'`)).toBe(1);
    expect(await queryOne(t.db, sql`SELECT reason, patient_id FROM offline_reviews WHERE id = ${results[0]!.reviewId}`)).toEqual({
      reason: 'POSSIBLE_DUPLICATE_PATIENT',
      patient_id: patientId,
    });
    expect((await sync(doctor, [reg])).results).toEqual(results);
  });

  it('is refused to a staff member without patients.create, and with a device time out of range', async () => {
    const nurse = await offlineUser(t, { roleId: ROLE_IDS.nurse });
    const patients = await count('patients');
    const refused = await sync(nurse, [registration(person('Kaino', 'Amutenya'))]);
    expect(refused.results[0]).toMatchObject({ outcome: 'needs_attention', code: 'PERMISSION_REQUIRED' });
    const late = await sync(doctor, [registration(person('Kaino', 'Amutenya'), ago(80 * HOUR))]);
    expect(late.results[0]).toMatchObject({ outcome: 'needs_attention', code: 'OFFLINE_DEVICE_TIME_INVALID' });
    expect(await count('patients')).toBe(patients);
  });
  it('with a body the registration refuses is needs_attention VALIDATION_FAILED; the rest of the batch is stored', async () => {
    const patientId = await withRecord();
    const bad = registration({ ...person('', 'Haufiku'), sex: 'Unknown' });
    const entry = entryOf('vitals', { id: patientId }, SAMPLE_INPUTS.vitals, ago(HOUR));
    const patients = await count('patients');
    const { results } = await sync(doctor, [bad, entry]);
    expect(results[0]).toMatchObject({ clientId: bad.clientId, outcome: 'needs_attention', code: 'VALIDATION_FAILED' });
    expect(results[0]!.issues?.map((i) => i.path).sort()).toEqual(['firstName', 'sex']);
    expect(results[1]).toMatchObject({ outcome: 'saved', patientId });
    expect(await count('patients')).toBe(patients);
    expect(await count('offline_registrations', sql`client_id = ${bad.clientId}`)).toBe(0);
  });
});

describe('offline opens', () => {
  it('become VIEW PATIENT audit rows once for records granted at their time; others are refused and not logged as opens', async () => {
    const granted = await withRecord();
    const notGranted = (await createPatient(t.db)).id;
    // Opened (offline) a few minutes after the grant was made; the other record was never granted.
    clock.advance(5 * 60_000);
    const open = { clientId: randomUUID(), patientId: granted, deviceTime: ago(60_000).toISOString() };
    const stranger = { clientId: randomUUID(), patientId: notGranted, deviceTime: ago(60_000).toISOString() };
    const first = await sync(doctor, [], [open, stranger, open]);
    expect(first.accessLogSaved).toEqual([open.clientId]);
    expect(first.accessLogRefused).toEqual([stranger.clientId]);
    const again = await sync(doctor, [], [open, stranger]);
    expect(again.accessLogSaved).toEqual([open.clientId]);
    expect(again.accessLogRefused).toEqual([stranger.clientId]);
    const rows = await auditOf(open.clientId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'VIEW', resource_type: 'PATIENT', patient_id: granted });
    expect(rows[0]!.new_values).toMatchObject({ view: 'OFFLINE', deviceId: doctor.deviceId, deviceTime: open.deviceTime });
    expect(await auditOf(stranger.clientId)).toHaveLength(0);
    expect(await count('security_events', sql`event_type = 'OFFLINE_OPEN_REFUSED' AND user_id = ${doctor.user.id}`)).toBe(1);
    // The patient's own access history lists the offline open.
    const history = await queryRows<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM audit_logs WHERE patient_id = ${granted} AND new_values->>'view' = 'OFFLINE'`,
    );
    expect(history[0]!.n).toBe(1);
  });
});

describe('bad input', () => {
  it('is a 400 for a malformed batch, and nothing changes', async () => {
    const patientId = await withRecord();
    const entry = entryOf('vitals', { id: patientId }, SAMPLE_INPUTS.vitals, ago(HOUR));
    const before = [await count('vitals'), await auditCount(t)];
    const api = deviceApi(t, doctor.cookie, doctor.deviceId);
    for (const writes of [
      Array.from({ length: 51 }, () => entryOf('vitals', { id: patientId }, SAMPLE_INPUTS.vitals, ago(HOUR))),
      [{ ...entry, clientId: 'not-a-uuid' }],
      [{ ...entry, kind: 'pets' }],
      [{ ...entry, deviceTime: 'yesterday' }],
      [{ ...entry, patient: { id: -1 } }],
      [{ ...entry, extra: true }],
    ]) {
      const res = await api.sync(writes as OfflineWrite[]);
      expect(res.statusCode, JSON.stringify(writes[0])).toBe(400);
    }
    expect([await count('vitals'), await auditCount(t)]).toEqual(before);
  });
});

describe('durability', () => {
  it('stores each write of a batch exactly once when the batch is sent twice at once and then again', async () => {
    const patients = [await withRecord(), await withRecord()];
    const reg = {
      type: 'patient',
      clientId: randomUUID(),
      deviceTime: ago(HOUR).toISOString(),
      body: {
        firstName: 'Nangula',
        lastName: 'Shipanga',
        dateOfBirth: '2001-02-03',
        sex: 'Female',
        contactNumber: '',
        address: '',
        nextOfKin: '',
        nextOfKinContact: '',
      },
    } as OfflineWrite;
    const writes: OfflineWrite[] = [
      reg,
      ...Array.from({ length: 40 }, (_, i) =>
        entryOf('vitals', { id: patients[i % 2]! }, { ...SAMPLE_INPUTS.vitals, systolic: 100 + i }, ago(HOUR - i * 1000)),
      ),
      ...Array.from({ length: 9 }, () => entryOf('vitals', { clientId: reg.clientId }, SAMPLE_INPUTS.vitals, ago(HOUR - 60_000))),
    ];
    const opens = Array.from({ length: 10 }, (_, i) => ({
      clientId: randomUUID(),
      patientId: patients[i % 2]!,
      deviceTime: clock.now().toISOString(),
    }));
    const api = deviceApi(t, doctor.cookie, doctor.deviceId);
    const [a, b] = await Promise.all([api.sync(writes, opens), api.sync(writes, opens)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const c = await sync(doctor, writes, opens);
    for (const res of [a.json<SyncResponse>(), b.json<SyncResponse>(), c]) {
      expect(res.results.every((r) => r.outcome === 'saved')).toBe(true);
      expect(res.accessLogSaved.sort()).toEqual(opens.map((o) => o.clientId).sort());
    }
    const entryIds = writes.filter((w) => w.type === 'entry').map((w) => w.clientId);
    const keys = await count('idempotency_keys', sql`user_id = ${doctor.user.id} AND key = ANY(${`{${entryIds.join(',')}}`}::varchar[])`);
    expect(keys).toBe(49);
    const itemIds = new Set(c.results.slice(1).map((r) => r.id));
    expect(itemIds.size).toBe(49);
    expect(await count('vitals', sql`id = ANY(${`{${[...itemIds].join(',')}}`}::int[])`)).toBe(49);
    expect(await count('offline_registrations', sql`client_id = ${reg.clientId}::uuid`)).toBe(1);
    const allIds = [...writes.map((w) => w.clientId), ...opens.map((o) => o.clientId)];
    const audited = await queryRows<{ id: string; n: number }>(
      t.db,
      sql`SELECT new_values->>'clientId' AS id, count(*)::int AS n FROM audit_logs
           WHERE new_values->>'clientId' = ANY(${`{${allIds.join(',')}}`}::text[]) AND action <> 'VIEW' OR
                 (new_values->>'view' = 'OFFLINE' AND new_values->>'clientId' = ANY(${`{${allIds.join(',')}}`}::text[]))
           GROUP BY 1`,
    );
    // One CREATE per entry and for the registration, one VIEW per open.
    expect(audited).toHaveLength(allIds.length);
    expect(audited.every((r) => r.n === 1)).toBe(true);
  });
});
