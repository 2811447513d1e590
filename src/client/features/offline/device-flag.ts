// The device flag of offline clinic mode (issue 27, decision 061): this browser's device id and the user who switched
// offline mode on, in localStorage. The one part of offline mode the first page may import: everything else (the
// engine, the service worker, the status bar) loads lazily, and only when this flag is set. Set when offline mode is
// enabled, cleared when the store is wiped.
const FLAG_KEY = 'nhr.offline.device';

export interface DeviceFlag {
  deviceId: string;
  userId: string;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage refused (privacy settings): offline mode is off
  }
}

/** This browser's device, or null when offline mode is not switched on here. */
export function readDeviceFlag(): DeviceFlag | null {
  try {
    const v = JSON.parse(storage()?.getItem(FLAG_KEY) ?? 'null') as Partial<DeviceFlag> | null;
    return v && typeof v.deviceId === 'string' && typeof v.userId === 'string' ? { deviceId: v.deviceId, userId: v.userId } : null;
  } catch {
    return null;
  }
}

const listeners = new Set<() => void>();
const changed = (): void => listeners.forEach((l) => l());

export function setDeviceFlag(flag: DeviceFlag): void {
  storage()?.setItem(FLAG_KEY, JSON.stringify({ deviceId: flag.deviceId, userId: flag.userId }));
  changed();
}

export function clearDeviceFlag(): void {
  storage()?.removeItem(FLAG_KEY);
  changed();
}

/** Hears the flag set or cleared, on this page or another tab (for useSyncExternalStore). */
export function onDeviceFlagChange(listener: () => void): () => void {
  listeners.add(listener);
  const fromOtherTab = (e: StorageEvent): void => {
    if (e.key === FLAG_KEY) listener();
  };
  window.addEventListener('storage', fromOtherTab);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', fromOtherTab);
  };
}

export const hasOfflineDevice = (): boolean => readDeviceFlag() !== null;
