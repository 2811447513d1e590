// The device flag of offline clinic mode (issue 27, decision 061): the id of this browser's device when offline mode is
// switched on here, kept outside the encrypted store so that the first page can tell, without loading the offline
// code, whether to load it. Minimal version for the screens; the engine sets and clears it.
export const OFFLINE_DEVICE_KEY = 'nhr-offline-device';

export function offlineDeviceId(): string | null {
  try {
    return localStorage.getItem(OFFLINE_DEVICE_KEY);
  } catch {
    return null; // storage blocked: no offline mode
  }
}
