// The one offline engine of this page (issue 27, decision 061), loaded on first use: its code (the engine, idb, the
// service worker's registration) is a separate chunk that only a device with offline mode switched on, or the
// screen that switches it on, ever fetches.
import type { OfflineEngine } from './engine/offline-engine';

let shared: Promise<OfflineEngine> | null = null;
let loaded: OfflineEngine | null = null;
const onLoad = new Set<() => void>();

/** The engine once loaded (for useSyncExternalStore), else null. */
export const loadedOfflineEngine = (): OfflineEngine | null => loaded;

/** Called once the engine has loaded. */
export function onOfflineEngineLoaded(listener: () => void): () => void {
  onLoad.add(listener);
  return () => onLoad.delete(listener);
}

/** Makes `engine` the page's engine (a component test's, over a store in memory); before any load. */
export function provideOfflineEngine(engine: OfflineEngine): void {
  loaded = engine;
  shared = Promise.resolve(engine);
  for (const l of [...onLoad]) l();
}

/** The page's engine; the first call loads it (and, on a device switched on, registers the service worker). */
export function loadOfflineEngine(): Promise<OfflineEngine> {
  shared ??= Promise.all([import('./engine/engine'), import('./engine/idb-store'), import('./service-worker')]).then(
    ([{ OfflineDeviceEngine, browserNetwork }, { IdbStore }, sw]) => {
      const engine = new OfflineDeviceEngine({
        store: new IdbStore(),
        fetch: (input, init) => fetch(input, init),
        network: browserNetwork,
        onWiped: () => sw.unregisterServiceWorker().catch((e: unknown) => console.warn('offline: the service worker stayed', e)),
      });
      // Registered while offline mode is on: at load when it already was, or once it is switched on.
      const registerWhenOn = (): void => {
        if (engine.status().enabled) void sw.registerServiceWorker();
      };
      engine.subscribe(registerWhenOn);
      void engine.ready.then(registerWhenOn);
      loaded = engine;
      for (const l of [...onLoad]) l();
      return engine;
    },
  );
  return shared;
}
