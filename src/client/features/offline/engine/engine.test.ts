// The offline engine in Node (issue 27, decision 061) against the real app: its device routes and the record's, on a
// real database, as a doctor with an authenticator app (test/offline-device.ts). The encrypted store, the delta read
// merged, the offline set, the PIN, expiry and revocation (an administrator's real revocation), and sync: batching,
// each outcome from a real cause, a link that fails (no answer, a proxy's 503, an answer lost after the server stored
// the batch) keeps everything, a reload sends what is left and the server stores each write once; retry and discard.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../../contracts/constants';
import { SYNC_BATCH_MAX } from '../../../../contracts/offline';
import { createPatient, type TestPatient } from '../../../../server/test/patient-fixtures';
import { confirmAccess, recordApi } from '../../../../server/test/record-api';
import { SAMPLE_INPUTS } from '../../../../server/test/record-samples';
import { queryOne } from '../../../../server/test/sql';
import { signInAs, type StaffUser } from '../../../../server/test/staff';
import { createTestApp, type TestApp } from '../../../../server/test/test-app';
import { installAppTransport, type AppTransport } from '../../../test/app-transport';
import { endGrants, offlineClinician, testDevice, type TestDevice } from '../../../test/offline-device';
import type { MemoryStore } from './memory-store';

let t: TestApp;
let transport: AppTransport;
let cookie: string;
let user: StaffUser;
let admin: string;
let patient: TestPatient;
const devices: TestDevice[] = [];

beforeAll(async () => {
  t = await createTestApp();
  ({ user, cookie } = await offlineClinician(t));
  admin = (await signInAs(t, ROLE_IDS.admin)).cookie;
  patient = await createPatient(t.db);
  await confirmAccess(t, cookie, patient.id);
  transport = installAppTransport(t.app, cookie);
});
afterAll(async () => {
  transport?.restore();
  await t?.close();
});
afterEach(() => {
  for (const d of devices.splice(0)) d.dispose();
});

function device(opts: { online?: boolean } = {}): TestDevice {
  const d = testDevice(opts);
  devices.push(d);
  return d;
}

const count = async (query: ReturnType<typeof sql>): Promise<number> => (await queryOne<{ n: number }>(t.db, query))!.n;
const vitalsOf = (patientId: number): Promise<number> => count(sql`SELECT count(*)::int AS n FROM vitals WHERE patient_id = ${patientId}`);
/** The clientIds of the writes each sync request the device sent carried, in order (answered or not). */
const sentWrites = (): string[][] =>
  transport.sent
    .filter((r) => r.url.endsWith('/sync'))
    .map((r) => (r.body as { writes: { clientId: string }[] }).writes.map((w) => w.clientId));

async function revoke(deviceId: string): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/devices/${deviceId}/revoke`,
    headers: { cookie: admin },
    payload: { reason: 'Laptop stolen' },
  });
  expect(res.statusCode).toBe(200);
}

/** Every byte the store holds, as text: what a thief with the disk would read. */
function storedText(store: MemoryStore): string {
  const parts: string[] = [];
  const walk = (v: unknown): void => {
    if (v instanceof ArrayBuffer) parts.push(new TextDecoder('latin1').decode(v));
    else if (ArrayBuffer.isView(v)) parts.push(new TextDecoder('latin1').decode(v as Uint8Array));
    else if (typeof v === 'string') parts.push(v);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        parts.push(k);
        walk(x);
      }
    }
  };
  for (const [table, rows] of store.tables) {
    for (const [k, v] of rows) {
      parts.push(`${table}/${k}`);
      walk(v);
    }
  }
  return parts.join('\n');
}

const REGISTRATION = {
  firstName: 'Johanna',
  lastName: 'Nangolo',
  sex: 'Female' as const,
  dateOfBirth: '1990-01-02',
  contactNumber: '',
  address: '',
  nextOfKin: '',
  nextOfKinContact: '',
};

describe('offline engine: store, refresh and queue', () => {
  it('keeps the granted record from the delta read, encrypted: no name or clinical text in the store, keys are ids', async () => {
    const api = recordApi(t, cookie);
    const added = await api.add('allergies', patient.id, SAMPLE_INPUTS.allergies);
    expect(added.statusCode).toBe(201);
    const d = device({ online: true });
    await d.engine.enable('Reception laptop', '482913');
    await d.engine.refresh();

    const record = await d.engine.openRecord({ id: patient.id });
    expect(record?.patient.lastName).toBe(patient.lastName);
    expect(record?.lists.allergies.map((a) => a.id)).toEqual([added.json<{ id: number }>().id]);
    d.link.set(false);
    await d.engine.queueEntry({ id: patient.id }, 'vitals', SAMPLE_INPUTS.vitals);

    const text = storedText(d.store);
    for (const clear of [patient.firstName, patient.lastName, patient.idNumber, String(SAMPLE_INPUTS.allergies.allergen)]) {
      expect(text).not.toContain(clear);
    }
    expect(await d.store.keys('records')).toEqual([`p:${patient.id}`]);
    expect(d.flag()).toEqual({ deviceId: d.engine.status().deviceId, userId: user.id });
  });

  it('merges what changed since its cursor: an entry marked entered in error leaves the device', async () => {
    const api = recordApi(t, cookie);
    const d = device({ online: true });
    await d.engine.enable('Clinic tablet', '1234');
    await d.engine.refresh();
    const added = (await api.add('diagnoses', patient.id, SAMPLE_INPUTS.diagnoses)).json<{ id: number }>();
    await d.engine.refresh();
    expect((await d.engine.openRecord({ id: patient.id }))?.lists.diagnoses.map((r) => r.id)).toContain(added.id);

    expect((await api.remove('diagnoses', added.id, 'wrong patient')).statusCode).toBeLessThan(300);
    transport.sent.length = 0;
    await d.engine.refresh();
    // The second read asked only for what changed since the first one's cursor.
    expect(transport.sent.find((r) => r.url.startsWith(`/api/patients/${patient.id}/changes`))?.url).toMatch(/\?since=/);
    expect((await d.engine.openRecord({ id: patient.id }))?.lists.diagnoses.map((r) => r.id)).not.toContain(added.id);
  });

  it('drops a patient who left the offline set (the grant ended)', async () => {
    const leaving = await createPatient(t.db, { lastName: 'Haufiku' });
    await confirmAccess(t, cookie, leaving.id);
    const d = device({ online: true });
    await d.engine.enable('Clinic tablet', '1234');
    await d.engine.refresh();
    expect((await d.engine.searchPatients('Haufiku')).map((p) => p.id)).toEqual([leaving.id]);
    await endGrants(t, user.id, leaving.id);
    await d.engine.refresh();
    expect(await d.engine.searchPatients('Haufiku')).toEqual([]);
    expect(await d.store.keys('records')).not.toContain(`p:${leaving.id}`);
  });

  it('refuses a wrong PIN and opens with the right one after a reload', async () => {
    const d = device({ online: true });
    await d.engine.enable('Clinic tablet', '482913');
    await d.engine.refresh();
    d.link.set(false);
    await d.engine.queueRegistration({ ...REGISTRATION });
    const again = d.reload();
    await again.ready;
    expect(again.status()).toMatchObject({ enabled: true, unlocked: false, waiting: 1 });
    expect(await again.unlock('000000')).toBe(false);
    expect(again.status().unlocked).toBe(false);
    expect(await again.unlock('482913')).toBe(true);
    expect(again.status()).toMatchObject({ unlocked: true, waiting: 1 });
    again.lock();
    expect(again.status().unlocked).toBe(false);
    await expect(again.queueRegistration({ ...REGISTRATION })).rejects.toThrow(/locked/);
  });

  it('wipes the store when the server has not answered for longer than the expiry', async () => {
    const d = device({ online: true });
    await d.engine.enable('Clinic tablet', '1234');
    await d.engine.refresh(); // the first copy, which enable starts
    d.link.set(false);
    d.advance(71 * 3_600_000);
    expect(await d.reload().unlock('1234')).toBe(true);
    d.advance(2 * 3_600_000);
    const later = d.reload();
    await later.ready;
    expect(later.status()).toMatchObject({ enabled: false, wipedBecause: 'expired' });
    expect(d.flag()).toBeNull();
    expect(d.store.tables.size).toBe(0);
  });

  it('wipes the store when the server says the device is revoked', async () => {
    const d = device({ online: true });
    await d.engine.enable('Clinic tablet', '1234');
    await d.engine.refresh(); // the first copy, which enable starts
    expect(await d.store.keys('records')).not.toEqual([]);
    await revoke(d.engine.status().deviceId!);
    await d.engine.refresh();
    expect(d.engine.status()).toMatchObject({ enabled: false, wipedBecause: 'revoked' });
    expect(d.flag()).toBeNull();
    expect(d.store.tables.size).toBe(0);
  });

  it('wipes the store on 403 DEVICE_REVOKED from a sync', async () => {
    const d = device({ online: true });
    await d.engine.enable('Clinic tablet', '1234');
    await d.engine.refresh();
    d.link.set(false);
    await d.engine.queueRegistration({ ...REGISTRATION, lastName: 'Revoked' });
    await revoke(d.engine.status().deviceId!);
    d.link.set(true);
    await expect(d.engine.syncNow()).rejects.toThrow(/403: DEVICE_REVOKED/);
    expect(d.engine.status()).toMatchObject({ enabled: false, waiting: 0, wipedBecause: 'revoked' });
    expect(d.store.tables.size).toBe(0);
    expect(await count(sql`SELECT count(*)::int AS n FROM patients WHERE last_name = 'Revoked'`)).toBe(0);
  });
});

describe('offline engine: sync', () => {
  it('sends registrations first, in batches of at most SYNC_BATCH_MAX, with the access log, and drops only what was saved', async () => {
    const d = device({ online: true });
    await d.engine.enable('Clinic tablet', '1234');
    await d.engine.refresh();
    d.link.set(false);
    await d.engine.openRecord({ id: patient.id });
    const entries = [];
    for (let i = 0; i < SYNC_BATCH_MAX + 20; i++)
      entries.push(await d.engine.queueEntry({ id: patient.id }, 'vitals', i === 1 ? { systolic: 'high' } : SAMPLE_INPUTS.vitals));
    // Made after the device's copy: another doctor adds a diagnosis meanwhile, so this one is stored for review.
    const diagnosis = await d.engine.queueEntry({ id: patient.id }, 'diagnoses', SAMPLE_INPUTS.diagnoses);
    const reg = await d.engine.queueRegistration({ ...REGISTRATION, lastName: 'Batched' });
    await d.engine.queueEntry({ clientId: reg.clientId }, 'allergies', SAMPLE_INPUTS.allergies);
    // A registration the server refuses (a date of birth in the future): the entry for that patient waits for it.
    const badReg = await d.engine.queueRegistration({ ...REGISTRATION, lastName: 'Refused', dateOfBirth: '2999-01-01' });
    const forBad = await d.engine.queueEntry({ clientId: badReg.clientId }, 'vitals', SAMPLE_INPUTS.vitals);
    const total = SYNC_BATCH_MAX + 25;
    expect(d.engine.status()).toMatchObject({ waiting: total, online: false });
    expect(entries[0]!.write).toMatchObject({ type: 'entry', kind: 'vitals', patient: { id: patient.id }, seenCursor: expect.any(String) });
    expect(entries[0]!.write.deviceTime).toMatch(/[+-]\d\d:\d\d$/);

    const other = await signInAs(t, ROLE_IDS.doctor);
    await confirmAccess(t, other.cookie, patient.id);
    expect((await recordApi(t, other.cookie).add('diagnoses', patient.id, SAMPLE_INPUTS.diagnoses)).statusCode).toBe(201);
    const vitalsBefore = await vitalsOf(patient.id);
    transport.sent.length = 0;
    const seen: ({ done: number; total: number } | null)[] = [];
    d.engine.subscribe(() => seen.push(d.engine.status().syncing));
    d.link.set(true);
    await d.engine.syncNow();

    const syncs = transport.sent.filter((r) => r.url.endsWith('/sync'));
    const first = syncs[0]!.body as { writes: { type: string; clientId: string }[]; accessLog: { patientId: number }[] };
    expect(
      first.writes
        .slice(0, 2)
        .map((w) => w.clientId)
        .sort(),
    ).toEqual([reg.clientId, badReg.clientId].sort());
    expect(first.accessLog).toEqual([expect.objectContaining({ patientId: patient.id })]);
    expect(sentWrites().every((w) => w.length <= SYNC_BATCH_MAX)).toBe(true);
    expect(seen).toContainEqual({ done: SYNC_BATCH_MAX, total });
    // Saved and saved for review left the queue; the refused ones wait for the user with their codes; the entry of
    // the patient the server has not stored stays waiting.
    const status = d.engine.status();
    expect(status.waiting).toBe(3);
    expect(status.attention.map((q) => [q.clientId, q.state, q.code]).sort()).toEqual(
      [
        [entries[1]!.clientId, 'needs_attention', 'VALIDATION_FAILED'],
        [badReg.clientId, 'needs_attention', 'VALIDATION_FAILED'],
      ].sort(),
    );
    expect(status.syncing).toBeNull();
    expect(await d.store.keys('access')).toEqual([]);
    expect((await d.engine.openRecord({ id: patient.id }))?.queued.map((q) => q.clientId)).toEqual([entries[1]!.clientId]);
    expect((await d.engine.openRecord({ clientId: badReg.clientId }))?.queued.map((q) => q.clientId).sort()).toEqual(
      [badReg.clientId, forBad.clientId].sort(),
    );
    // What the server holds: each valid vital once, the diagnosis with a review task, the new patient and their allergy.
    expect(await vitalsOf(patient.id)).toBe(vitalsBefore + SYNC_BATCH_MAX + 19);
    expect(
      await count(sql`SELECT count(*)::int AS n FROM offline_reviews WHERE client_id = ${diagnosis.clientId}
                      AND reason = 'RECORD_CHANGED_SINCE_SEEN'`),
    ).toBe(1);
    expect(
      await count(sql`SELECT count(*)::int AS n FROM allergies AS a JOIN patients AS p ON p.id = a.patient_id
                      WHERE p.last_name = 'Batched'`),
    ).toBe(1);
    expect(await count(sql`SELECT count(*)::int AS n FROM patients WHERE last_name = 'Refused'`)).toBe(0);
  });

  it('keeps everything on a network error or a 5xx, and a reload sends what is left: each write stored once', async () => {
    const d = device({ online: true });
    await d.engine.enable('Clinic tablet', '1234');
    await d.engine.refresh();
    d.link.set(false);
    const writes = [];
    for (let i = 0; i < SYNC_BATCH_MAX + 5; i++) writes.push(await d.engine.queueEntry({ id: patient.id }, 'vitals', SAMPLE_INPUTS.vitals));
    const before = await vitalsOf(patient.id);
    // The link comes back (which starts a sync) but the request gets no answer.
    d.link.cut('/sync');
    d.link.set(true);
    await expect(d.engine.syncNow()).rejects.toThrow(/No answer/);
    expect(d.engine.status().waiting).toBe(SYNC_BATCH_MAX + 5);
    d.link.proxy(503, '/sync');
    await expect(d.engine.syncNow()).rejects.toThrow(/503/);
    expect(d.engine.status()).toMatchObject({ waiting: SYNC_BATCH_MAX + 5, attention: [] });
    expect(await vitalsOf(patient.id)).toBe(before);

    // The first batch is answered; the second reaches the server, which stores it, and its answer is lost: the page
    // is reloaded with that batch still queued (nothing counts as saved before the answer).
    transport.sent.length = 0;
    d.link.loseAnswer('/sync', { skip: 1 });
    await expect(d.engine.syncNow()).rejects.toThrow(/No answer/);
    expect(d.engine.status().waiting).toBe(5);
    expect(await vitalsOf(patient.id)).toBe(before + SYNC_BATCH_MAX + 5);
    const reloaded = d.reload();
    expect(await reloaded.unlock('1234')).toBe(true);
    await reloaded.syncNow();
    expect(reloaded.status().waiting).toBe(0);
    expect(await vitalsOf(patient.id)).toBe(before + SYNC_BATCH_MAX + 5);
    // The saved batch was sent once; only the unanswered one again.
    const sent = sentWrites().flat();
    expect(new Set(sent)).toEqual(new Set(writes.map((w) => w.clientId)));
    expect(sent.length).toBe(SYNC_BATCH_MAX + 10);
  });

  it('retry sends a refused write again; discard tells the server and drops it', async () => {
    const stranger = await createPatient(t.db, { lastName: 'Kamati' });
    const d = device({ online: true });
    await d.engine.enable('Clinic tablet', '1234');
    await d.engine.refresh();
    d.link.set(false);
    // No grant to this patient's record yet: refused. Once the doctor has one (the patient consented), retry stores it.
    const a = await d.engine.queueEntry({ id: stranger.id }, 'vitals', SAMPLE_INPUTS.vitals);
    const b = await d.engine.queueRegistration({ ...REGISTRATION, lastName: 'Shikongo', dateOfBirth: '2999-01-01' });
    d.link.set(true);
    await d.engine.syncNow();
    const attention = d.engine.status().attention;
    expect(attention.map((q) => q.clientId).sort()).toEqual([a.clientId, b.clientId].sort());
    expect(attention.find((q) => q.clientId === a.clientId)?.code).toBe('OFFLINE_NO_GRANT');

    await confirmAccess(t, cookie, stranger.id);
    await d.engine.retry(a.clientId);
    expect(d.engine.status().attention.map((q) => q.clientId)).toEqual([b.clientId]);
    expect(await vitalsOf(stranger.id)).toBe(1);

    await d.engine.discard(b.clientId, 'Registered twice by mistake');
    expect(transport.sent.filter((r) => r.url.endsWith('/discard')).map((r) => [r.body, r.status])).toEqual([
      [{ clientId: b.clientId, reason: 'Registered twice by mistake', kind: 'patient' }, 204],
    ]);
    expect(d.engine.status()).toMatchObject({ waiting: 0, attention: [] });
    const audit = await queryOne<{ kind: string }>(
      t.db,
      sql`SELECT new_values->>'kind' AS kind FROM audit_logs
          WHERE resource_type = 'DEVICE' AND action = 'DELETE' AND new_values->>'discarded' = ${b.clientId}`,
    );
    expect(audit).toEqual({ kind: 'patient' });
  });
});
