// The device flag of offline clinic mode (issue 27, decision 061): this browser's device id and the user who switched
// offline mode on, in localStorage, outside the encrypted store, so that the first page can tell, without loading the
// offline code, whether to load it. The one part of offline mode the first page may import: everything else (the
// engine, the service worker, the status bar, the screens) loads lazily, and only when this flag is set. Set when
// offline mode is enabled, cleared when the store is wiped.
export const OFFLINE_DEVICE_KEY = 'nhr-offline-device';
const OFFLINE_USER_KEY = 'nhr-offline-user';

export interface DeviceFlag {
  deviceId: string;
  userId: string;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage blocked (privacy settings): no offline mode
  }
}

/** This browser's device id, or null when offline mode is not switched on here. */
export function offlineDeviceId(): string | null {
  try {
    return storage()?.getItem(OFFLINE_DEVICE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** This browser's device and its user, or null when offline mode is not switched on here. */
export function readDeviceFlag(): DeviceFlag | null {
  const deviceId = offlineDeviceId();
  return deviceId ? { deviceId, userId: storage()?.getItem(OFFLINE_USER_KEY) ?? '' } : null;
}

const listeners = new Set<() => void>();
const changed = (): void => listeners.forEach((l) => l());

export function setDeviceFlag(flag: DeviceFlag): void {
  storage()?.setItem(OFFLINE_USER_KEY, flag.userId);
  storage()?.setItem(OFFLINE_DEVICE_KEY, flag.deviceId);
  changed();
}

export function clearDeviceFlag(): void {
  storage()?.removeItem(OFFLINE_DEVICE_KEY);
  storage()?.removeItem(OFFLINE_USER_KEY);
  changed();
}

export const hasOfflineDevice = (): boolean => offlineDeviceId() !== null;

/** Hears the flag set or cleared, on this page or another tab (for useSyncExternalStore). */
export function onDeviceFlagChange(listener: () => void): () => void {
  listeners.add(listener);
  const fromOtherTab = (e: StorageEvent): void => {
    if (e.key === OFFLINE_DEVICE_KEY) listener();
  };
  window.addEventListener('storage', fromOtherTab);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', fromOtherTab);
  };
}
