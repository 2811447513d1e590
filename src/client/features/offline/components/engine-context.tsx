// How the offline screens reach the engine (issue 27, decision 061) without importing its files: app/ provides a
// loader of the engine (which loads its code only when asked); the screens take the loaded engine from here, or as a
// prop. Tests provide an engine of their own.
import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import type { OfflineEngine, OfflineStatus } from '../engine/offline-engine';

export type LoadOfflineEngine = () => Promise<OfflineEngine>;

const EngineContext = createContext<LoadOfflineEngine | null>(null);

export function OfflineEngineProvider({ load, children }: { load: LoadOfflineEngine; children: React.ReactNode }): React.JSX.Element {
  return <EngineContext.Provider value={load}>{children}</EngineContext.Provider>;
}

/** The engine's loader, or null outside a provider. */
export const useEngineLoader = (): LoadOfflineEngine | null => useContext(EngineContext);

/** The engine once loaded (null until then, and outside a provider). */
export function useOfflineEngine(): OfflineEngine | null {
  const load = useEngineLoader();
  const [engine, setEngine] = useState<OfflineEngine | null>(null);
  useEffect(() => {
    let live = true;
    if (load) void load().then((e) => live && setEngine(e));
    return () => {
      live = false;
    };
  }, [load]);
  return engine;
}

/** The engine's status, re-rendering on every change. */
export function useEngineStatus(engine: OfflineEngine): OfflineStatus {
  return useSyncExternalStore(
    (listener) => engine.subscribe(listener),
    () => engine.status(),
  );
}
