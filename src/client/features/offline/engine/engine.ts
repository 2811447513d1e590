// The offline engine (issue 27, decision 061): implements OfflineEngine (offline-engine.ts) over an encrypted store
// (raw-store.ts, store-crypto.ts), the server's device routes (src/contracts/offline.ts) and the delta read.
// - Every value but the clear `meta` record is sealed with the store key, which lives in memory only while unlocked.
// - Local data expires OFFLINE_EXPIRY_HOURS after the last answer from the server (checked on load and on unlock);
//   `revoked` or 403 DEVICE_REVOKED wipes everything.
// - The queue holds creates only, each with its own clientId; a write leaves the queue only when the server answered
//   `saved` or `saved_for_review`. A network error or a 5xx keeps everything and tries again later (backoff).
import {
  ACCESS_LOG_BATCH_MAX,
  SYNC_BATCH_MAX,
  type DeviceContact,
  type EnabledDevice,
  type OfflineAppointment,
} from '../../../../contracts/offline';
import type { OfflineOpen, OfflinePatient, OfflineSet, OfflineWrite, SyncResponse } from '../../../../contracts/offline';
import type { RecordKind } from '../../../../contracts/kinds';
import type { ChangesResponse } from '../../../../contracts/record-versions';
import type { AddPatientInput } from '../../../../contracts/patients';
import { clearDeviceFlag, readDeviceFlag, setDeviceFlag, type DeviceFlag } from '../device-flag';
import { emptyLists, mergeChanges, type KindLists } from './merge-changes';
import type { OfflineEngine, OfflineRecord, OfflineStatus, QueuedWrite, WipeReason } from './offline-engine';
import type { RawStore, StoreMeta, Table } from './raw-store';
import { newStoreKey, open, PIN_ITERATIONS, seal, unwrapStoreKey } from './store-crypto';
import { HttpError, NetworkError, requestJson } from './http';
import { orderForSync } from './sync-order';

/** Whether the link is up, and a way to hear when that changes. */
export interface NetworkWatch {
  online(): boolean;
  subscribe(listener: () => void): () => void;
}

export interface DeviceFlagStore {
  read(): DeviceFlag | null;
  set(flag: DeviceFlag): void;
  clear(): void;
}

export interface EngineEnv {
  store: RawStore;
  /** The page's fetch (tests pass one that reaches a real server). Paths are the API's (`/api/...`). */
  fetch: typeof fetch;
  network: NetworkWatch;
  now?: () => Date;
  flag?: DeviceFlagStore;
  pinIterations?: number;
  /** After a wipe, awaited (the browser's loader removes the service worker and its caches). */
  onWiped?: (reason: WipeReason) => Promise<void> | void;
  /** The first retry after a failed sync, in ms (doubles each time, at most RETRY_MAX_MS). */
  retryBaseMs?: number;
}

const RETRY_MAX_MS = 5 * 60_000;
const MAX_SYNC_ROUNDS = 5;
const META_KEY = 'meta';
const APPOINTMENTS_KEY = 'all';
const recordKey = (patientId: number): string => `p:${patientId}`;

/** What the store keeps of a record (sealed). */
interface StoredRecord {
  patient: OfflinePatient;
  lists: KindLists;
  cursor: string | null;
}
type StoredWrite = Omit<QueuedWrite, 'state'> & { state: 'waiting' | 'needs_attention' };

export const browserNetwork: NetworkWatch = {
  online: () => navigator.onLine,
  subscribe(listener) {
    window.addEventListener('online', listener);
    window.addEventListener('offline', listener);
    return () => {
      window.removeEventListener('online', listener);
      window.removeEventListener('offline', listener);
    };
  },
};

/** The device's clock as ISO 8601 with its UTC offset (`2026-11-28T09:12:00.000+02:00`). */
export function isoWithOffset(d: Date): string {
  const off = -d.getTimezoneOffset();
  const pad = (n: number, w = 2): string => String(Math.abs(n)).padStart(w, '0');
  const local = new Date(d.getTime() + off * 60_000).toISOString().slice(0, -1);
  return `${local}${off >= 0 ? '+' : '-'}${pad(Math.trunc(off / 60))}:${pad(off % 60)}`;
}

const nameOf = (p: { firstName: string; lastName: string }): string => `${p.firstName} ${p.lastName}`.trim();

export class OfflineDeviceEngine implements OfflineEngine {
  private readonly env: Required<Omit<EngineEnv, 'onWiped'>> & Pick<EngineEnv, 'onWiped'>;
  private meta: StoreMeta | null = null;
  private key: CryptoKey | null = null;
  /** The queue, decrypted (while unlocked); its size is known while locked too. */
  private queue = new Map<string, QueuedWrite>();
  private lockedQueueSize = 0;
  private syncProgress: { done: number; total: number } | null = null;
  private lastSyncedAt: string | null = null;
  private wipedBecause: WipeReason | null = null;
  private snapshot: OfflineStatus;
  private readonly listeners = new Set<() => void>();
  private syncRun: Promise<void> | null = null;
  private refreshRun: Promise<void> | null = null;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly unsubscribeNetwork: () => void;
  /** Loading the clear meta and the queue's size; every public method waits for it. */
  readonly ready: Promise<void>;

  constructor(env: EngineEnv) {
    this.env = {
      now: () => new Date(),
      flag: { read: readDeviceFlag, set: setDeviceFlag, clear: clearDeviceFlag },
      pinIterations: PIN_ITERATIONS,
      retryBaseMs: 5_000,
      ...env,
    };
    this.snapshot = this.computeStatus();
    this.unsubscribeNetwork = this.env.network.subscribe(() => {
      this.emit();
      if (this.env.network.online()) void this.syncAndRefresh();
    });
    this.ready = this.load();
  }

  // ---- status ----

  status(): OfflineStatus {
    return this.snapshot;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops listening to the network and the retry timer (tests; the page keeps one engine for its life). */
  dispose(): void {
    this.unsubscribeNetwork();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.listeners.clear();
  }

  private computeStatus(): OfflineStatus {
    const attention = [...this.queue.values()].filter((q) => q.state === 'needs_attention');
    return {
      enabled: this.meta !== null,
      unlocked: this.key !== null,
      online: this.env.network.online(),
      waiting: this.key ? this.queue.size : this.lockedQueueSize,
      syncing: this.syncProgress,
      attention,
      lastSyncedAt: this.lastSyncedAt ?? this.meta?.lastContactAt ?? null,
      deviceId: this.meta?.deviceId ?? null,
      wipedBecause: this.wipedBecause,
    };
  }

  private emit(): void {
    this.snapshot = this.computeStatus();
    for (const l of [...this.listeners]) l();
  }

  // ---- store ----

  private async load(): Promise<void> {
    const flag = this.env.flag.read();
    const meta = (await this.env.store.get('meta', META_KEY)) ?? null;
    if (!flag || !meta || meta.deviceId !== flag.deviceId) {
      // Half a device (the browser evicted the store, or the flag was cleared): nothing of it is kept.
      if (flag || meta) await this.wipe('user');
      return;
    }
    this.meta = meta;
    if (await this.expireIfStale()) return;
    this.lockedQueueSize = (await this.env.store.keys('queue')).length;
    this.emit();
  }

  /** Wipes the store when the server has not answered for longer than the expiry; true when it did. */
  private async expireIfStale(): Promise<boolean> {
    if (!this.meta) return false;
    const age = this.env.now().getTime() - Date.parse(this.meta.lastContactAt);
    if (!(age > this.meta.expiryHours * 3_600_000)) return false;
    await this.wipe('expired');
    return true;
  }

  private requireKey(): CryptoKey {
    if (!this.key || !this.meta) throw new Error('The offline store is locked');
    return this.key;
  }

  private async put(table: Exclude<Table, 'meta'>, key: string, value: unknown): Promise<void> {
    await this.env.store.put(table, key, await seal(this.requireKey(), `${table}/${key}`, value));
  }

  private async read<T>(table: Exclude<Table, 'meta'>, key: string): Promise<T | null> {
    const sealed = await this.env.store.get(table, key);
    return sealed ? open<T>(this.requireKey(), `${table}/${key}`, sealed) : null;
  }

  private async readAll<T>(table: Exclude<Table, 'meta'>): Promise<[string, T][]> {
    const key = this.requireKey();
    const entries = await this.env.store.entries(table);
    return Promise.all(entries.map(async ([k, v]) => [k, await open<T>(key, `${table}/${k}`, v)] as [string, T]));
  }

  private async saveWrite(q: QueuedWrite): Promise<void> {
    const stored: StoredWrite = { ...q, state: q.state === 'needs_attention' ? 'needs_attention' : 'waiting' };
    await this.put('queue', q.clientId, stored);
    this.queue.set(q.clientId, q);
  }

  private async dropWrite(clientId: string): Promise<void> {
    await this.env.store.delete('queue', clientId);
    this.queue.delete(clientId);
  }

  private async touchContact(at: string): Promise<void> {
    if (!this.meta) return;
    this.meta = { ...this.meta, lastContactAt: at };
    this.lastSyncedAt = at;
    await this.env.store.put('meta', META_KEY, this.meta);
  }

  // ---- the server ----

  private async call<T>(method: string, url: string, body?: unknown): Promise<T> {
    try {
      const answer = await requestJson<T>(this.env.fetch, method, url, body);
      await this.touchContact(this.env.now().toISOString());
      return answer;
    } catch (e) {
      if (e instanceof HttpError && e.status === 403 && e.code === 'DEVICE_REVOKED' && this.meta) await this.wipe('revoked');
      throw e;
    }
  }

  private devicePath(rest: string): string {
    if (!this.meta) throw new Error('Offline mode is not switched on');
    return `/api/devices/${encodeURIComponent(this.meta.deviceId)}/${rest}`;
  }

  // ---- switching on, locking, wiping ----

  async enable(label: string, pin: string): Promise<void> {
    await this.ready;
    const answer = await requestJson<EnabledDevice>(this.env.fetch, 'POST', '/api/devices', { label });
    // Whatever an earlier device of this browser kept goes first.
    if (this.meta) await this.wipe('user');
    await this.env.store.destroy();
    const { key, wrapped } = await newStoreKey(pin, this.env.pinIterations);
    const meta: StoreMeta = {
      deviceId: answer.device.id,
      userId: answer.device.userId,
      wrappedKey: wrapped,
      lastContactAt: this.env.now().toISOString(),
      expiryHours: answer.expiryHours,
    };
    await this.env.store.put('meta', META_KEY, meta);
    this.env.flag.set({ deviceId: meta.deviceId, userId: meta.userId });
    this.meta = meta;
    this.key = key;
    this.queue = new Map();
    this.wipedBecause = null;
    this.lastSyncedAt = meta.lastContactAt;
    this.emit();
    void this.refresh().catch(() => undefined); // the first offline copy, in the background
  }

  async unlock(pin: string): Promise<boolean> {
    await this.ready;
    if (!this.meta || (await this.expireIfStale())) return false;
    const key = await unwrapStoreKey(pin, this.meta.wrappedKey);
    if (!key) return false;
    this.key = key;
    const queued = await this.readAll<StoredWrite>('queue');
    this.queue = new Map(queued.map(([, q]) => [q.clientId, q]));
    this.emit();
    if (this.env.network.online()) void this.syncAndRefresh();
    return true;
  }

  lock(): void {
    this.lockedQueueSize = this.queue.size;
    this.key = null;
    this.queue = new Map();
    this.emit();
  }

  async wipe(reason: WipeReason): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.key = null;
    this.meta = null;
    this.queue = new Map();
    this.lockedQueueSize = 0;
    this.syncProgress = null;
    this.lastSyncedAt = null;
    this.env.flag.clear();
    await this.env.store.destroy();
    this.wipedBecause = reason;
    this.emit();
    await this.env.onWiped?.(reason);
  }

  // ---- what is kept ----

  async refresh(): Promise<void> {
    await this.ready;
    this.refreshRun ??= this.runRefresh().finally(() => (this.refreshRun = null));
    return this.refreshRun;
  }

  private async runRefresh(): Promise<void> {
    this.requireKey();
    const contact = await this.call<DeviceContact>('POST', this.devicePath('contact'));
    if (contact.status === 'revoked') return this.wipe('revoked');
    const set = await this.call<OfflineSet>('GET', this.devicePath('offline-set'));
    await this.put('appointments', APPOINTMENTS_KEY, set.appointments);
    const keep = new Set(set.patients.map((p) => recordKey(p.id)));
    for (const k of await this.env.store.keys('records')) if (!keep.has(k)) await this.env.store.delete('records', k);
    for (const patient of set.patients) {
      if (!this.key) return; // wiped meanwhile
      const kept = await this.read<StoredRecord>('records', recordKey(patient.id));
      const since = kept?.cursor ? `?since=${encodeURIComponent(kept.cursor)}` : '';
      let changes: ChangesResponse;
      try {
        changes = await this.call<ChangesResponse>('GET', `/api/patients/${patient.id}/changes${since}`);
      } catch (e) {
        // No access any more (grant ended, patient joined) or a cursor the server no longer knows: not kept.
        if (e instanceof HttpError && e.status >= 400 && e.status < 500 && e.code !== 'DEVICE_REVOKED') {
          await this.env.store.delete('records', recordKey(patient.id));
          continue;
        }
        throw e;
      }
      const lists = mergeChanges(kept?.lists ?? emptyLists(), changes.changes);
      await this.put('records', recordKey(patient.id), { patient, lists, cursor: changes.cursor } satisfies StoredRecord);
    }
    this.emit();
  }

  async appointments(): Promise<OfflineAppointment[]> {
    await this.ready;
    return (await this.read<OfflineAppointment[]>('appointments', APPOINTMENTS_KEY)) ?? [];
  }

  async searchPatients(query: string): Promise<OfflinePatient[]> {
    await this.ready;
    const q = query.trim().toLowerCase();
    const records = await this.readAll<StoredRecord>('records');
    return records
      .map(([, r]) => r.patient)
      .filter((p) => !q || [nameOf(p), p.idNumber, p.dateOfBirth ?? ''].some((v) => v.toLowerCase().includes(q)));
  }

  async openRecord(patient: { id: number } | { clientId: string }): Promise<OfflineRecord | null> {
    await this.ready;
    if ('clientId' in patient) {
      const reg = this.queue.get(patient.clientId);
      if (!reg || reg.write.type !== 'patient') return null;
      const body = reg.write.body as AddPatientInput; // as queueRegistration took it
      return {
        patient: {
          id: 0,
          firstName: body.firstName,
          lastName: body.lastName,
          idNumber: '',
          dateOfBirth: body.dateOfBirth || null,
          sex: body.sex,
          grantExpiresAt: '',
        },
        lists: emptyLists(),
        cursor: null,
        queued: this.queuedFor(patient),
        provisionalClientId: patient.clientId,
      };
    }
    const kept = await this.read<StoredRecord>('records', recordKey(patient.id));
    if (!kept) return null;
    const open: OfflineOpen = { clientId: crypto.randomUUID(), patientId: patient.id, deviceTime: isoWithOffset(this.env.now()) };
    await this.put('access', open.clientId, open);
    return { ...kept, queued: this.queuedFor(patient), provisionalClientId: null };
  }

  private queuedFor(patient: { id: number } | { clientId: string }): QueuedWrite[] {
    return [...this.queue.values()].filter((q) => {
      if (q.write.type === 'patient') return 'clientId' in patient && q.clientId === patient.clientId;
      const p = q.write.patient;
      return 'id' in patient ? 'id' in p && p.id === patient.id : 'clientId' in p && p.clientId === patient.clientId;
    });
  }

  // ---- the queue ----

  async queueEntry<K extends RecordKind>(
    patient: { id: number } | { clientId: string },
    kind: K,
    body: Record<string, unknown>,
  ): Promise<QueuedWrite> {
    await this.ready;
    this.requireKey();
    let seenCursor: string | null = null;
    let patientLabel: string;
    if ('id' in patient) {
      const kept = await this.read<StoredRecord>('records', recordKey(patient.id));
      seenCursor = kept?.cursor ?? null;
      patientLabel = kept ? nameOf(kept.patient) : `#${patient.id}`;
    } else {
      const reg = this.queue.get(patient.clientId);
      if (!reg || reg.write.type !== 'patient') throw new Error('No patient registered offline with this clientId');
      patientLabel = nameOf(reg.write.body as AddPatientInput);
    }
    const p = 'id' in patient ? { id: patient.id } : { clientId: patient.clientId };
    return this.enqueue(
      { type: 'entry', clientId: crypto.randomUUID(), deviceTime: isoWithOffset(this.env.now()), kind, patient: p, seenCursor, body },
      patientLabel,
    );
  }

  async queueRegistration(body: AddPatientInput): Promise<QueuedWrite> {
    await this.ready;
    this.requireKey();
    return this.enqueue({ type: 'patient', clientId: crypto.randomUUID(), deviceTime: isoWithOffset(this.env.now()), body }, nameOf(body));
  }

  private async enqueue(write: OfflineWrite, patientLabel: string): Promise<QueuedWrite> {
    const q: QueuedWrite = {
      clientId: write.clientId,
      write,
      patientLabel,
      queuedAt: this.env.now().toISOString(),
      state: 'waiting',
      code: null,
      lastOutcome: null,
    };
    await this.saveWrite(q);
    this.emit();
    if (this.env.network.online()) void this.syncNow().catch(() => undefined);
    return q;
  }

  async retry(clientId: string): Promise<void> {
    await this.ready;
    const q = this.queue.get(clientId);
    if (!q) return;
    await this.saveWrite({ ...q, state: 'waiting', code: null });
    this.emit();
    await this.syncNow();
  }

  async discard(clientId: string, reason: string): Promise<void> {
    await this.ready;
    const q = this.queue.get(clientId);
    if (!q) return;
    // What it was, for the audit row (the server never stored the write).
    const w = q.write;
    const about = w.type === 'patient' ? { kind: 'patient' } : { kind: w.kind, ...('id' in w.patient ? { patientId: w.patient.id } : {}) };
    try {
      await this.call('POST', this.devicePath('discard'), { clientId, reason, ...about });
    } catch (e) {
      // Stored after all (an earlier send was answered after the refusal shown): nothing to discard, nothing lost.
      if (!(e instanceof HttpError && e.code === 'OFFLINE_WRITE_SAVED')) throw e;
    }
    await this.dropWrite(clientId);
    this.emit();
  }

  // ---- sync ----

  private async syncAndRefresh(): Promise<void> {
    try {
      await this.syncNow();
      if (this.key) await this.refresh();
    } catch {
      // syncNow has planned its retry; a failed refresh waits for the next chance
    }
  }

  /** Sends the queue and the access log; a network error or a 5xx rejects after planning a retry. */
  async syncNow(): Promise<void> {
    await this.ready;
    this.syncRun ??= this.runSync().finally(() => {
      this.syncRun = null;
      this.syncProgress = null;
      this.emit();
    });
    return this.syncRun;
  }

  private async runSync(): Promise<void> {
    if (!this.key || !this.meta || !this.env.network.online()) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    try {
      for (let round = 0; round < MAX_SYNC_ROUNDS; round++) {
        const saved = await this.syncRound();
        // Entries answered `waiting` wait for a patient registered offline: again, once such a patient was stored.
        const stillWaiting = [...this.queue.values()].some((q) => q.state === 'waiting' && q.lastOutcome === 'waiting');
        if (!saved || !stillWaiting) break;
      }
      this.failures = 0;
      if ([...this.queue.values()].some((q) => q.state === 'waiting')) this.planRetry();
    } catch (e) {
      if (this.meta) {
        this.failures++;
        this.planRetry();
      }
      throw e;
    }
  }

  private planRetry(): void {
    if (this.retryTimer || !this.meta) return;
    const delay = Math.min(this.env.retryBaseMs * 2 ** Math.min(this.failures, 10), RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.syncNow().catch(() => undefined);
    }, delay);
  }

  /** One pass over the queue; how many writes the server stored. */
  private async syncRound(): Promise<number> {
    const order = orderForSync([...this.queue.values()].filter((q) => q.state === 'waiting'));
    const access = (await this.readAll<OfflineOpen>('access')).map(([, o]) => o);
    if (order.length === 0 && access.length === 0) return 0;
    let saved = 0;
    let done = 0;
    this.syncProgress = { done, total: order.length };
    this.emit();
    for (let i = 0; i < order.length || access.length > 0; i += SYNC_BATCH_MAX) {
      const batch = order.slice(i, i + SYNC_BATCH_MAX);
      const log = access.splice(0, ACCESS_LOG_BATCH_MAX);
      for (const q of batch) this.setState(q.clientId, 'sending');
      this.emit();
      let answer: SyncResponse;
      try {
        answer = await this.call<SyncResponse>('POST', this.devicePath('sync'), { writes: batch.map((q) => q.write), accessLog: log });
      } catch (e) {
        for (const q of batch) this.setState(q.clientId, 'waiting');
        // The batch as a whole refused (not the link, not the server's fault): each write needs the user.
        if (e instanceof HttpError && e.status === 400) {
          for (const q of batch)
            await this.saveWrite({ ...this.queue.get(q.clientId)!, state: 'needs_attention', code: e.code ?? 'VALIDATION_ERROR' });
          this.emit();
          continue;
        }
        this.emit();
        throw e;
      }
      for (const r of answer.results) {
        const q = this.queue.get(r.clientId);
        if (!q) continue;
        if (r.outcome === 'saved' || r.outcome === 'saved_for_review') {
          await this.dropWrite(r.clientId);
          saved++;
        } else if (r.outcome === 'needs_attention') {
          await this.saveWrite({ ...q, state: 'needs_attention', code: r.code ?? 'UNKNOWN', lastOutcome: r.outcome });
        } else {
          await this.saveWrite({ ...q, state: 'waiting', code: null, lastOutcome: r.outcome });
        }
      }
      for (const q of batch) if (this.queue.get(q.clientId)?.state === 'sending') this.setState(q.clientId, 'waiting');
      // Stored, or refused for good (no grant covered that open: the server keeps it as a security event).
      const refused = (answer as SyncResponse & { accessLogRefused?: string[] }).accessLogRefused ?? [];
      for (const id of [...answer.accessLogSaved, ...refused]) await this.env.store.delete('access', id);
      done += batch.length;
      this.syncProgress = { done, total: order.length };
      this.emit();
    }
    return saved;
  }

  private setState(clientId: string, state: QueuedWrite['state']): void {
    const q = this.queue.get(clientId);
    if (q) this.queue.set(clientId, { ...q, state });
  }
}

export { HttpError, NetworkError };
