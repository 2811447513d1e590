// Offline clinic mode in journeys (issue 27): requests from the page, the authenticator app's codes, the offline
// store read byte by byte, the engine's own code run in the page, and the network cut through the DevTools protocol.
import type { CDPSession, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';

export const totpOf = (secret: string): TOTP => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });

/** A request from the page (its session cookie, its origin): status and JSON body. */
export async function pageApi(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(url, {
        method,
        credentials: 'include',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
    },
    { method, url, body },
  );
}

/** Every value of the offline store, each byte read as text (what a thief with the disk would read). */
export function storeText(page: Page): Promise<{ text: string; counts: Record<string, number> } | null> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((d) => d.name === 'nhr-offline')) return null;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('nhr-offline');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const parts: string[] = [];
    const counts: Record<string, number> = {};
    const walk = (v: unknown): void => {
      if (v instanceof ArrayBuffer) parts.push(new TextDecoder('latin1').decode(v));
      else if (ArrayBuffer.isView(v)) parts.push(new TextDecoder('latin1').decode(v));
      else if (typeof v === 'string') parts.push(v);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          parts.push(k);
          walk(x);
        }
      }
    };
    for (const name of Array.from(db.objectStoreNames)) {
      const [keys, values] = await new Promise<[IDBValidKey[], unknown[]]>((resolve, reject) => {
        const store = db.transaction(name).objectStore(name);
        const k = store.getAllKeys();
        const v = store.getAll();
        v.onsuccess = () => resolve([k.result, v.result]);
        v.onerror = () => reject(v.error);
      });
      counts[name] = keys.length;
      keys.forEach((key, i) => {
        parts.push(`${name}/${String(key)}`);
        walk(values[i]);
      });
    }
    db.close();
    return { text: parts.join('\n'), counts };
  });
}

/**
 * Runs `script` in the page with the engine's own code as the build made it (route-chunks.json names the chunks):
 * a new engine over the page's IndexedDB, its fetch and its network.
 */
export async function withEngine<T>(page: Page, script: string, arg: unknown): Promise<T> {
  // A string, not a function: the test runner would rewrite a function's import() for Node.
  return page.evaluate(`(async () => {
    const chunks = await (await fetch('/route-chunks.json')).json();
    const load = (m) => import('/' + chunks.modules[m][0]);
    const [engineModule, storeModule] = await Promise.all([
      load('features/offline/engine/engine.ts'),
      load('features/offline/engine/idb-store.ts'),
    ]);
    const engine = new engineModule.OfflineDeviceEngine({
      store: new storeModule.IdbStore(),
      fetch: (input, init) => fetch(input, init),
      network: engineModule.browserNetwork,
    });
    await engine.ready;
    const arg = ${JSON.stringify(arg)};
    try {
      ${script}
    } finally {
      engine.dispose();
    }
  })()`) as Promise<T>;
}

/** Cuts (offline) or restores the page's network through the DevTools protocol. */
export async function setOffline(cdp: CDPSession, offline: boolean): Promise<void> {
  await cdp.send('Network.emulateNetworkConditions', { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
}

/** Sets up an authenticator app for the signed-in user (through the API) and proves it in this session. */
export async function proveSecondFactor(page: Page): Promise<TOTP> {
  const enrol = await pageApi(page, 'POST', '/api/auth/mfa/totp/enrol');
  if (enrol.status !== 200) throw new Error(`enrol: ${enrol.status}`);
  const totp = totpOf((enrol.body as { secret: string }).secret);
  const confirmed = await pageApi(page, 'POST', '/api/auth/mfa/totp/confirm', { code: totp.generate() });
  if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status}`);
  return totp;
}
