// An in-memory OfflineEngine for the offline screens' component tests (issue 27): it keeps to the engine's face
// (features/offline/engine/offline-engine.ts) without encryption, IndexedDB or a server, so that the screens are tested
// before and apart from the engine itself (which has its own tests). What the server would answer, a test sets:
// `enableAnswers` (errors thrown by enable, one per call) and `attention` (writes the server refused).
import { RECORD_KINDS, type RecordKind, type RecordRows } from '../../contracts/kinds';
import type { OfflineAppointment, OfflinePatient } from '../../contracts/offline';
import type { AddPatientInput } from '../../contracts/patients';
import type { OfflineEngine, OfflineRecord, OfflineStatus, QueuedWrite, WipeReason } from '../features/offline/engine/offline-engine';
import { OFFLINE_DEVICE_KEY, offlineDeviceId } from '../features/offline/device-flag';

/** The test device's id. */
export const TEST_DEVICE_ID = '00000000-0000-4000-8000-000000000001';

/**
 * Sets or clears this browser's device flag as the engine does (the one place the tests write it: when the engine's
 * device-flag.ts replaces the minimal one, only these two lines change).
 */
export function setTestDeviceFlag(on: boolean): void {
  if (on) localStorage.setItem(OFFLINE_DEVICE_KEY, TEST_DEVICE_ID);
  else localStorage.removeItem(OFFLINE_DEVICE_KEY);
}

/** Whether the device flag is set (read the way the screens read it). */
export const testDeviceFlagSet = (): boolean => offlineDeviceId() !== null;

type Lists = { [K in RecordKind]: RecordRows[K][] };
const emptyLists = (): Lists => Object.fromEntries(RECORD_KINDS.map((k) => [k, []])) as unknown as Lists;

export interface MemoryEngineSeed {
  pin?: string;
  appointments?: OfflineAppointment[];
  patients?: { patient: OfflinePatient; lists?: Partial<Lists> }[];
  attention?: QueuedWrite[];
}

export class MemoryEngine implements OfflineEngine {
  readonly calls: { method: string; args: unknown[] }[] = [];
  /** Thrown by enable(), first to last, one per call; once empty, enable succeeds. */
  enableAnswers: unknown[] = [];
  private listeners = new Set<() => void>();
  private snapshot: OfflineStatus;
  private pin: string | null;
  private queue: QueuedWrite[] = [];
  private readonly seed: MemoryEngineSeed;

  constructor(seed: MemoryEngineSeed = {}, online = false) {
    this.seed = seed;
    this.pin = seed.pin ?? null;
    this.queue = [...(seed.attention ?? [])];
    this.snapshot = {
      enabled: this.pin !== null,
      unlocked: false,
      online,
      waiting: this.queue.length,
      syncing: null,
      attention: this.queue.filter((w) => w.state === 'needs_attention'),
      lastSyncedAt: null,
      deviceId: this.pin !== null ? TEST_DEVICE_ID : null,
    };
  }

  private set(patch: Partial<OfflineStatus>): void {
    const attention = this.queue.filter((w) => w.state === 'needs_attention');
    this.snapshot = { ...this.snapshot, ...patch, waiting: this.queue.length, attention };
    for (const l of this.listeners) l();
  }

  /** The queued writes, oldest first. */
  writes(): readonly QueuedWrite[] {
    return this.queue;
  }
  status(): OfflineStatus {
    return this.snapshot;
  }
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  async enable(label: string, pin: string): Promise<void> {
    this.calls.push({ method: 'enable', args: [label, pin] });
    const answer = this.enableAnswers.shift();
    if (answer !== undefined) throw answer;
    this.pin = pin;
    setTestDeviceFlag(true);
    this.set({ enabled: true, unlocked: true, deviceId: TEST_DEVICE_ID });
  }
  async unlock(pin: string): Promise<boolean> {
    this.calls.push({ method: 'unlock', args: [pin] });
    if (this.pin === null || pin !== this.pin) return false;
    this.set({ unlocked: true });
    return true;
  }
  lock(): void {
    this.set({ unlocked: false });
  }
  async wipe(reason: WipeReason): Promise<void> {
    this.calls.push({ method: 'wipe', args: [reason] });
    this.pin = null;
    this.queue = [];
    setTestDeviceFlag(false);
    this.set({ enabled: false, unlocked: false, deviceId: null });
  }
  async refresh(): Promise<void> {}
  async appointments(): Promise<OfflineAppointment[]> {
    return this.seed.appointments ?? [];
  }
  async searchPatients(query: string): Promise<OfflinePatient[]> {
    const q = query.toLowerCase();
    return (this.seed.patients ?? [])
      .map((p) => p.patient)
      .filter((p) => [p.firstName, p.lastName, p.idNumber, p.dateOfBirth ?? ''].some((v) => v.toLowerCase().includes(q)));
  }
  async openRecord(patient: { id: number } | { clientId: string }): Promise<OfflineRecord | null> {
    this.calls.push({ method: 'openRecord', args: [patient] });
    if (!('id' in patient)) return null;
    const kept = (this.seed.patients ?? []).find((p) => p.patient.id === patient.id);
    if (!kept) return null;
    const queued = this.queue.filter((w) => w.write.type === 'entry' && 'id' in w.write.patient && w.write.patient.id === patient.id);
    return { patient: kept.patient, lists: { ...emptyLists(), ...kept.lists }, cursor: null, queued };
  }
  async queueEntry<K extends RecordKind>(
    patient: { id: number } | { clientId: string },
    kind: K,
    body: Record<string, unknown>,
  ): Promise<QueuedWrite> {
    this.calls.push({ method: 'queueEntry', args: [patient, kind, body] });
    const clientId = crypto.randomUUID();
    const write: QueuedWrite = {
      clientId,
      write: { type: 'entry', clientId, deviceTime: new Date().toISOString(), kind, patient, seenCursor: null, body },
      patientLabel: 'id' in patient ? String(patient.id) : patient.clientId,
      queuedAt: new Date().toISOString(),
      state: 'waiting',
      code: null,
      lastOutcome: null,
    };
    this.queue.push(write);
    this.set({});
    return write;
  }
  async queueRegistration(body: AddPatientInput): Promise<QueuedWrite> {
    this.calls.push({ method: 'queueRegistration', args: [body] });
    const clientId = crypto.randomUUID();
    const write: QueuedWrite = {
      clientId,
      write: { type: 'patient', clientId, deviceTime: new Date().toISOString(), body },
      patientLabel: `${body.lastName}, ${body.firstName}`,
      queuedAt: new Date().toISOString(),
      state: 'waiting',
      code: null,
      lastOutcome: null,
    };
    this.queue.push(write);
    this.set({});
    return write;
  }
  async syncNow(): Promise<void> {}
  async retry(clientId: string): Promise<void> {
    this.calls.push({ method: 'retry', args: [clientId] });
    const w = this.queue.find((q) => q.clientId === clientId);
    if (w) w.state = 'waiting';
    this.set({});
  }
  async discard(clientId: string, reason: string): Promise<void> {
    this.calls.push({ method: 'discard', args: [clientId, reason] });
    this.queue = this.queue.filter((q) => q.clientId !== clientId);
    this.set({});
  }
}
