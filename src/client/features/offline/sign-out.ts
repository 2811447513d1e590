// Offline mode at sign-out (issue 27, decision 061): the device's store, key and flag are wiped, and nothing that has
// not reached the server is ever wiped without the user's word ("nothing is lost"). Before signing out, the screens
// (components/sign-out-guard.tsx) try a last sync (unsentAtSignOut); when changes still wait or need attention, they
// ask, and only on "Sign out and delete" are those changes discarded (discardUnsentAtSignOut) and the store wiped.
// Loads the engine only on a device switched on.
import { hasOfflineDevice } from './device-flag';
import type { OfflineEngine } from './engine/offline-engine';
import { loadOfflineEngine } from './load-engine';

/** Set once the user chose to delete the unsent changes (for this sign-out only: the page is left afterwards). */
let deleteConfirmed = false;

/** Tries a last sync (unlocked and online only); how many changes have still not reached the server (0: none). */
export async function unsentAtSignOut(): Promise<number> {
  if (!hasOfflineDevice()) return 0;
  const engine = await loadOfflineEngine();
  // syncNow first waits for the store's meta and queue size; it sends only while unlocked and online.
  await engine.syncNow().catch(() => undefined); // no answer: what waits is counted below
  return engine.status().waiting;
}

/** The server answered and refused this one (4xx but a timeout or too many requests): the next may still go. */
function answeredForGood(e: unknown): boolean {
  const status = typeof e === 'object' && e !== null ? (e as { status?: unknown }).status : undefined;
  return typeof status === 'number' && status < 500 && status !== 408 && status !== 429;
}

/** The queued writes the status knows of, each provisional patient's entries before its registration. */
async function unsentWrites(engine: OfflineEngine): Promise<string[]> {
  const ids: string[] = [];
  for (const w of engine.status().attention) {
    // Entries for a patient registered on this device wait for that registration (which the server refused).
    if (w.write.type === 'patient') {
      const record = await engine.openRecord({ clientId: w.clientId });
      for (const q of record?.queued ?? []) if (q.clientId !== w.clientId) ids.push(q.clientId);
    }
    ids.push(w.clientId);
  }
  return [...new Set(ids)];
}

/**
 * The user chose to sign out and lose the unsent changes: each one the server can still be told of is discarded
 * through the engine (the server audits it, with `reason`); once the server cannot be reached, the rest are deleted
 * locally with the store at the wipe (wipeOfflineAtSignOut, which runs next).
 */
export async function discardUnsentAtSignOut(reason: string): Promise<void> {
  deleteConfirmed = true;
  if (!hasOfflineDevice()) return;
  const engine = await loadOfflineEngine();
  if (!engine.status().unlocked || !engine.status().online) return;
  for (const clientId of await unsentWrites(engine)) {
    try {
      await engine.discard(clientId, reason);
    } catch (e) {
      console.warn('offline: a change was deleted on this device only', e);
      if (!engine.status().enabled) return; // revoked meanwhile: the engine wiped the store
      if (!answeredForGood(e)) return; // no answer, or the server failing: the rest go with the store
    }
  }
}

/**
 * The wipe, run by the sign-out while the session still holds (useLogout's beforeSignOut). It refuses when changes
 * still wait and the user did not choose to delete them: the store is then kept (its key locked away with the page).
 */
export async function wipeOfflineAtSignOut(): Promise<void> {
  if (!hasOfflineDevice()) return;
  const engine = await loadOfflineEngine();
  if (!deleteConfirmed && (await unsentAtSignOut()) > 0) throw new Error('offline: changes not sent; the store is kept');
  await engine.wipe('sign-out');
}
