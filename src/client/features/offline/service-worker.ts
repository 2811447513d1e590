// The service worker of offline clinic mode (issue 27, decision 061), registered only on a device with offline mode
// switched on (load-engine.ts): it keeps the app shell and the translations (vite.config.ts, VitePWA), so the app
// opens without a network. A new version waits until every tab of the app has closed, so that an open page never
// loses the chunks it was built with.
import { Workbox } from 'workbox-window';

let registered: Promise<void> | null = null;

export function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return Promise.resolve();
  registered ??= new Workbox('/sw.js', { scope: '/' })
    .register()
    .then(() => undefined)
    .catch((e: unknown) => {
      registered = null;
      console.warn('offline: the service worker was not registered', e);
    });
  return registered;
}

/** After a wipe: no service worker and none of its caches are left on the device. */
export async function unregisterServiceWorker(): Promise<void> {
  registered = null;
  if (!('serviceWorker' in navigator)) return;
  const registrations = await navigator.serviceWorker.getRegistrations();
  await Promise.all(registrations.map((r) => r.unregister()));
  if ('caches' in globalThis) await Promise.all((await caches.keys()).map((k) => caches.delete(k)));
}
