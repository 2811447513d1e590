// The offline status for React (issue 27): useSyncExternalStore over the page's engine. On a device without offline
// mode it loads nothing and answers the switched-off status.
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { hasOfflineDevice } from './device-flag';
import type { OfflineStatus } from './engine/offline-engine';
import { loadedOfflineEngine, loadOfflineEngine, onOfflineEngineLoaded } from './load-engine';

const SWITCHED_OFF: OfflineStatus = {
  enabled: false,
  unlocked: false,
  online: true,
  waiting: 0,
  syncing: null,
  attention: [],
  lastSyncedAt: null,
  deviceId: null,
  wipedBecause: null,
};

export function useOfflineStatus(): OfflineStatus {
  useEffect(() => {
    if (hasOfflineDevice()) void loadOfflineEngine();
  }, []);
  const subscribe = useCallback((listener: () => void) => {
    let fromEngine: (() => void) | null = loadedOfflineEngine()?.subscribe(listener) ?? null;
    const offLoad = onOfflineEngineLoaded(() => {
      fromEngine ??= loadedOfflineEngine()?.subscribe(listener) ?? null;
      listener();
    });
    return () => {
      offLoad();
      fromEngine?.();
    };
  }, []);
  const snapshot = useCallback(() => loadedOfflineEngine()?.status() ?? SWITCHED_OFF, []);
  return useSyncExternalStore(subscribe, snapshot, () => SWITCHED_OFF);
}
