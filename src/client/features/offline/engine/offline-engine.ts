// The offline engine's face (issue 27, decision 061): what the offline screens and the status bar use. The engine
// (this folder) keeps the device's encrypted store, its queue of creates and its sync; it is loaded only on a device
// where offline mode is switched on (the flag in ../device-flag.ts), never in the first page's JavaScript.
import type { OfflineAppointment, OfflinePatient, OfflineWrite, SyncOutcome } from '../../../../contracts/offline';
import type { RecordKind, RecordRows } from '../../../../contracts/kinds';
import type { AddPatientInput } from '../../../../contracts/patients';

/** One queued create as the user sees it. Nothing here counts as saved until the server said so (`saved`). */
export interface QueuedWrite {
  clientId: string;
  write: OfflineWrite;
  /** Who the entry is for, as the device knows them (for the list of waiting changes). */
  patientLabel: string;
  queuedAt: string;
  /** waiting: not sent or not answered yet; needs_attention: refused (code), kept until retried or discarded. */
  state: 'waiting' | 'sending' | 'needs_attention';
  code: string | null;
  lastOutcome: SyncOutcome | null;
}

export interface OfflineStatus {
  /** This device has offline mode switched on (for the signed-in user). */
  enabled: boolean;
  /** The store's key is in memory (the device PIN was given since the page loaded). */
  unlocked: boolean;
  online: boolean;
  /** Creates queued and not yet acknowledged by the server (needs_attention ones included). */
  waiting: number;
  /** While a sync runs: how many of how many writes it has sent. */
  syncing: { done: number; total: number } | null;
  /** The writes the server refused: each can be retried or discarded. */
  attention: QueuedWrite[];
  /** When the server last answered this device (ISO), or null. */
  lastSyncedAt: string | null;
  deviceId: string | null;
}

/** A record as kept offline: the patient and each kind's current rows. */
export interface OfflineRecord {
  patient: OfflinePatient;
  lists: { [K in RecordKind]: RecordRows[K][] };
  /** The delta-read cursor the lists are as of. */
  cursor: string | null;
  /** The queued creates for this patient (shown as "waiting", never as saved). */
  queued: QueuedWrite[];
}

/** Why the store was wiped (the status bar and the unlock screen say it). */
export type WipeReason = 'sign-out' | 'revoked' | 'expired' | 'user';

export interface OfflineEngine {
  status(): OfflineStatus;
  /** For useSyncExternalStore: called on every change of status(). */
  subscribe(listener: () => void): () => void;
  /** POST /api/devices, then a new store key wrapped by a key derived from `pin`; the store is left unlocked. */
  enable(label: string, pin: string): Promise<void>;
  /** Unwraps the store key with `pin`; false when the PIN is wrong. */
  unlock(pin: string): Promise<boolean>;
  lock(): void;
  /** Deletes the store, the key and the device flag. */
  wipe(reason: WipeReason): Promise<void>;
  /** Fetches the offline set and each patient's changes (the delta read); contacts the server (revocation, expiry). */
  refresh(): Promise<void>;
  appointments(): Promise<OfflineAppointment[]>;
  /** The patients kept offline whose name, NC number or date of birth contains `query` (all for ''). */
  searchPatients(query: string): Promise<OfflinePatient[]>;
  /** Opens a kept record: written to the local access log, uploaded on the next sync. null when not kept. */
  openRecord(patient: { id: number } | { clientId: string }): Promise<OfflineRecord | null>;
  queueEntry<K extends RecordKind>(
    patient: { id: number } | { clientId: string },
    kind: K,
    body: Record<string, unknown>,
  ): Promise<QueuedWrite>;
  /** Registers a provisional patient; returns the clientId its entries name. */
  queueRegistration(body: AddPatientInput): Promise<QueuedWrite>;
  /** Sends the queue and the access log now (also runs by itself when the link comes back). */
  syncNow(): Promise<void>;
  retry(clientId: string): Promise<void>;
  /** POST /api/devices/{id}/discard, then drops the write. */
  discard(clientId: string, reason: string): Promise<void>;
}
