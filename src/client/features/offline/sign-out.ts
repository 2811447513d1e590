// Offline mode at sign-out (issue 27, decision 061): the device's store, key and flag are wiped. What still waits is
// sent first while the session and the link allow (a write the server has not answered is otherwise lost with the
// store: the screens warn before signing out with changes waiting). Loads the engine only on a device switched on.
import { hasOfflineDevice } from './device-flag';
import { loadOfflineEngine } from './load-engine';

export async function wipeOfflineAtSignOut(): Promise<void> {
  if (!hasOfflineDevice()) return;
  const engine = await loadOfflineEngine();
  try {
    if (engine.status().unlocked && navigator.onLine) await engine.syncNow();
  } catch {
    // no answer: the wipe goes ahead (sign-out means this device keeps nothing)
  }
  await engine.wipe('sign-out');
}
