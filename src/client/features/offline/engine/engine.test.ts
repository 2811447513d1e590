// The offline engine in Node (issue 27, decision 061): the encrypted store, the delta read merged from the real app,
// the queue, and sync's batching and outcomes. The record's routes are the real app's (a doctor with a granted
// record); the device routes answer as src/contracts/offline.ts says (contract-device-routes.ts), every request
// checked with the contract's schemas.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_BATCH_MAX, type OfflinePatient } from '../../../../contracts/offline';
import { doctorWithRecord, recordApi } from '../../../../server/test/record-api';
import { SAMPLE_INPUTS } from '../../../../server/test/record-samples';
import type { TestPatient } from '../../../../server/test/patient-fixtures';
import { createTestApp, type TestApp } from '../../../../server/test/test-app';
import { installAppTransport, type AppTransport } from '../../../test/app-transport';
import type { DeviceFlag } from '../device-flag';
import { contractDeviceRoutes, type ContractDeviceRoutes } from './contract-device-routes';
import { OfflineDeviceEngine, type NetworkWatch } from './engine';
import { MemoryStore } from './memory-store';

let t: TestApp;
let transport: AppTransport;
let cookie: string;
let patient: TestPatient;
const engines: OfflineDeviceEngine[] = [];

beforeAll(async () => {
  t = await createTestApp();
  ({ cookie, patient } = await doctorWithRecord(t));
  transport = installAppTransport(t.app, cookie);
});
afterAll(async () => {
  transport.restore();
  await t.close();
});
afterEach(() => {
  for (const e of engines.splice(0)) e.dispose();
});

function network(on = true): NetworkWatch & { set(on: boolean): void } {
  const listeners = new Set<() => void>();
  return {
    online: () => on,
    subscribe: (l) => (listeners.add(l), () => listeners.delete(l)),
    set(v) {
      on = v;
      for (const l of listeners) l();
    },
  };
}

const asOffline = (p: TestPatient): OfflinePatient => ({ ...p, grantExpiresAt: new Date(Date.now() + 3_600_000).toISOString() });

/** A device: its store, flag, network and clock, and the engine over them (a second engine on the same parts is a reload). */
function device(routes: ContractDeviceRoutes, opts: { online?: boolean } = {}) {
  const store = new MemoryStore();
  let flag: DeviceFlag | null = null;
  const net = network(opts.online ?? false);
  let now = Date.now();
  const make = (): OfflineDeviceEngine => {
    const e = new OfflineDeviceEngine({
      store,
      network: net,
      // The device routes as the contract says; everything else to the real app as the signed-in doctor.
      fetch: (input, init) => (String(input).startsWith('/api/devices') ? routes.fetch(input, init) : globalThis.fetch(input, init)),
      now: () => new Date(now),
      flag: { read: () => flag, set: (f) => (flag = f), clear: () => (flag = null) },
      pinIterations: 1_000,
      retryBaseMs: 3_600_000, // no timed retry inside a test: each test syncs when it means to
    });
    engines.push(e);
    return e;
  };
  return {
    store,
    net,
    flag: () => flag,
    advance: (ms: number) => (now += ms),
    engine: make(),
    reload: make,
  };
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

describe('offline engine: store, refresh and queue', () => {
  it('keeps the granted record from the delta read, encrypted: no name or clinical text in the store, keys are ids', async () => {
    const api = recordApi(t, cookie);
    const added = await api.add('allergies', patient.id, SAMPLE_INPUTS.allergies);
    expect(added.statusCode).toBe(201);
    const routes = contractDeviceRoutes('3', { serverTime: '', appointments: [], patients: [asOffline(patient)] });
    const d = device(routes, { online: true });
    await d.engine.enable('Reception laptop', '482913');
    await d.engine.refresh();

    const record = await d.engine.openRecord({ id: patient.id });
    expect(record?.patient.lastName).toBe(patient.lastName);
    expect(record?.lists.allergies.map((a) => a.id)).toEqual([added.json<{ id: number }>().id]);
    await d.engine.queueEntry({ id: patient.id }, 'vitals', SAMPLE_INPUTS.vitals);

    const text = storedText(d.store);
    for (const clear of [patient.firstName, patient.lastName, patient.idNumber, String(SAMPLE_INPUTS.allergies.allergen)]) {
      expect(text).not.toContain(clear);
    }
    expect(await d.store.keys('records')).toEqual([`p:${patient.id}`]);
    expect(d.flag()).toEqual({ deviceId: d.engine.status().deviceId, userId: '3' });
  });

  it('merges what changed since its cursor: an entry marked entered in error leaves the device', async () => {
    const api = recordApi(t, cookie);
    const routes = contractDeviceRoutes('3', { serverTime: '', appointments: [], patients: [asOffline(patient)] });
    const d = device(routes, { online: true });
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

  it('drops a patient who left the offline set', async () => {
    const routes = contractDeviceRoutes('3', { serverTime: '', appointments: [], patients: [asOffline(patient)] });
    const d = device(routes, { online: true });
    await d.engine.enable('Clinic tablet', '1234');
    await d.engine.refresh();
    expect(await d.engine.searchPatients(patient.lastName.slice(0, 4))).toHaveLength(1);
    routes.offlineSet = { ...routes.offlineSet, patients: [] };
    await d.engine.refresh();
    expect(await d.engine.searchPatients('')).toEqual([]);
    expect(await d.store.keys('records')).toEqual([]);
  });

  it('refuses a wrong PIN and opens with the right one after a reload', async () => {
    const d = device(contractDeviceRoutes('3', { serverTime: '', appointments: [], patients: [] }));
    await d.engine.enable('Clinic tablet', '482913');
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
    const d = device(contractDeviceRoutes('3', { serverTime: '', appointments: [], patients: [] }));
    await d.engine.enable('Clinic tablet', '1234');
    await d.engine.refresh(); // the first copy, which enable starts
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
    const routes = contractDeviceRoutes('3', { serverTime: '', appointments: [], patients: [] });
    const d = device(routes, { online: true });
    await d.engine.enable('Clinic tablet', '1234');
    await d.engine.refresh(); // the first copy, which enable starts
    routes.status = 'revoked';
    await d.engine.refresh();
    expect(d.engine.status()).toMatchObject({ enabled: false, wipedBecause: 'revoked' });
    expect(d.flag()).toBeNull();
  });

  it('wipes the store on 403 DEVICE_REVOKED from a sync', async () => {
    const routes = contractDeviceRoutes('3', { serverTime: '', appointments: [], patients: [] });
    const d = device(routes);
    await d.engine.enable('Clinic tablet', '1234');
    await d.engine.queueRegistration({ ...REGISTRATION });
    routes.status = 'revoked';
    d.net.set(true);
    await expect(d.engine.syncNow()).rejects.toThrow(/403/);
    expect(d.engine.status()).toMatchObject({ enabled: false, waiting: 0, wipedBecause: 'revoked' });
  });
});

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

describe('offline engine: sync', () => {
  it('sends registrations first, in batches of at most SYNC_BATCH_MAX, with the access log, and drops only what was saved', async () => {
    const routes = contractDeviceRoutes('3', { serverTime: '', appointments: [], patients: [asOffline(patient)] });
    const d = device(routes, { online: true });
    await d.engine.enable('Clinic tablet', '1234');
    await d.engine.refresh();
    d.net.set(false);
    await d.engine.openRecord({ id: patient.id });
    const entries = [];
    for (let i = 0; i < SYNC_BATCH_MAX + 20; i++)
      entries.push(await d.engine.queueEntry({ id: patient.id }, 'vitals', SAMPLE_INPUTS.vitals));
    const reg = await d.engine.queueRegistration({ ...REGISTRATION });
    const forNew = await d.engine.queueEntry({ clientId: reg.clientId }, 'allergies', SAMPLE_INPUTS.allergies);
    expect(d.engine.status()).toMatchObject({ waiting: SYNC_BATCH_MAX + 22, online: false });
    expect(entries[0]!.write).toMatchObject({ type: 'entry', kind: 'vitals', patient: { id: patient.id }, seenCursor: expect.any(String) });
    expect(entries[0]!.write.deviceTime).toMatch(/[+-]\d\d:\d\d$/);

    routes.outcomes.set(entries[1]!.clientId, { outcome: 'needs_attention', code: 'VALIDATION_ERROR' });
    routes.outcomes.set(entries[2]!.clientId, { outcome: 'saved_for_review' });
    routes.outcomes.set(forNew.clientId, { outcome: 'waiting' });
    const seen: ({ done: number; total: number } | null)[] = [];
    d.engine.subscribe(() => seen.push(d.engine.status().syncing));
    d.net.set(true);
    await d.engine.syncNow();

    const first = routes.syncs[0]!;
    expect(first.writes[0]).toMatchObject({ type: 'patient', clientId: reg.clientId });
    expect(first.accessLog).toEqual([expect.objectContaining({ patientId: patient.id })]);
    expect(routes.syncs.every((s) => s.writes.length <= SYNC_BATCH_MAX)).toBe(true);
    expect(seen).toContainEqual({ done: SYNC_BATCH_MAX, total: SYNC_BATCH_MAX + 22 });
    // Saved and saved for review left the queue; the refused one waits for the user with its code; the entry of the
    // patient not stored yet stays waiting.
    const status = d.engine.status();
    expect(status.waiting).toBe(2);
    expect(status.attention).toEqual([
      expect.objectContaining({ clientId: entries[1]!.clientId, state: 'needs_attention', code: 'VALIDATION_ERROR' }),
    ]);
    expect(status.syncing).toBeNull();
    expect(await d.store.keys('access')).toEqual([]);
    expect((await d.engine.openRecord({ id: patient.id }))?.queued.map((q) => q.clientId)).toEqual([entries[1]!.clientId]);
  });

  it('keeps everything on a network error or a 5xx, and a reload sends it again once: nothing saved before the answer', async () => {
    const routes = contractDeviceRoutes('3', { serverTime: '', appointments: [], patients: [] });
    const d = device(routes);
    await d.engine.enable('Clinic tablet', '1234');
    const writes = [];
    for (let i = 0; i < SYNC_BATCH_MAX * 2; i++) writes.push(await d.engine.queueRegistration({ ...REGISTRATION, lastName: `N${i}` }));
    d.net.set(true);
    routes.failNext = { status: 'network', times: 1 };
    await expect(d.engine.syncNow()).rejects.toThrow(/No answer/);
    expect(d.engine.status().waiting).toBe(SYNC_BATCH_MAX * 2);
    routes.failNext = { status: 503, code: 'SERVICE_UNAVAILABLE', times: 1 };
    await expect(d.engine.syncNow()).rejects.toThrow(/503/);
    expect(d.engine.status()).toMatchObject({ waiting: SYNC_BATCH_MAX * 2, attention: [] });

    // The first batch is answered, the second fails: the page is reloaded with half the queue left.
    routes.outcomes.clear();
    const realFetch = routes.fetch;
    let calls = 0;
    routes.fetch = async (input, init) => {
      if (String(input).endsWith('/sync') && ++calls === 2) throw new TypeError('Failed to fetch');
      return realFetch(input, init);
    };
    await expect(d.engine.syncNow()).rejects.toThrow();
    expect(d.engine.status().waiting).toBe(SYNC_BATCH_MAX);
    const reloaded = d.reload();
    expect(await reloaded.unlock('1234')).toBe(true);
    await reloaded.syncNow();
    expect(reloaded.status().waiting).toBe(0);
    expect([...routes.stored.keys()].sort()).toEqual(writes.map((w) => w.clientId).sort());
    const sent = routes.syncs.flatMap((s) => s.writes.map((w) => w.clientId));
    expect(new Set(sent).size).toBe(sent.length);
  });

  it('retry sends a refused write again; discard tells the server and drops it', async () => {
    const routes = contractDeviceRoutes('3', { serverTime: '', appointments: [], patients: [] });
    const d = device(routes);
    await d.engine.enable('Clinic tablet', '1234');
    const a = await d.engine.queueRegistration({ ...REGISTRATION });
    const b = await d.engine.queueRegistration({ ...REGISTRATION, lastName: 'Shikongo' });
    routes.outcomes.set(a.clientId, { outcome: 'needs_attention', code: 'PATIENT_NOT_FOUND' });
    routes.outcomes.set(b.clientId, { outcome: 'needs_attention', code: 'VALIDATION_ERROR' });
    d.net.set(true);
    await d.engine.syncNow();
    expect(
      d.engine
        .status()
        .attention.map((q) => q.clientId)
        .sort(),
    ).toEqual([a.clientId, b.clientId].sort());

    routes.outcomes.delete(a.clientId);
    await d.engine.retry(a.clientId);
    expect(d.engine.status().attention.map((q) => q.clientId)).toEqual([b.clientId]);

    await d.engine.discard(b.clientId, 'Registered twice by mistake');
    expect(routes.discards).toEqual([{ clientId: b.clientId, reason: 'Registered twice by mistake', kind: 'patient' }]);
    expect(d.engine.status()).toMatchObject({ waiting: 0, attention: [] });
  });
});
