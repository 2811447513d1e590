// A real offline device for client tests (issue 27, decision 061): the real engine (OfflineDeviceEngine) over the
// engine's memory store (Node has no IndexedDB: it stands for the browser's API, not for our system), its requests the
// page's fetch (in tests the real app through installAppTransport), a network switch and a clock of its own.
// The link between device and server may fail as a link does, never as our server would not: `link.cut()` throws
// before the request leaves (no answer), `link.proxy(503)` is a proxy's answer in front of the app, and
// `link.loseAnswer()` lets the app answer and loses the answer on the way back (the server did the work).
import { sql } from 'drizzle-orm';
import type { Permission } from '../../contracts/constants';
import { enrolTotp, grantPermission } from '../../server/test/offline-fixtures';
import { createStaffUser, signIn, type StaffUser } from '../../server/test/staff';
import type { TestApp } from '../../server/test/test-app';
import type { DeviceFlag } from '../features/offline/device-flag';
import { OfflineDeviceEngine, type NetworkWatch } from '../features/offline/engine/engine';
import { MemoryStore } from '../features/offline/engine/memory-store';

/** PBKDF2 iterations for a test device's PIN: set through the engine's env, which only tests pass (production keeps PIN_ITERATIONS). */
export const TEST_PIN_ITERATIONS = 1_000;

/** A clinician who may switch offline mode on: a doctor with patients.create and an authenticator app, signed in. */
export async function offlineClinician(
  t: TestApp,
  permissions: Permission[] = ['patients.create'],
): Promise<{ user: StaffUser; cookie: string }> {
  const user = await createStaffUser(t.db, { roleId: 3 });
  for (const p of permissions) await grantPermission(t, user.id, p);
  const cookie = await signIn(t.app, user.email, user.password);
  await enrolTotp(t, cookie, t.config.now());
  return { user, cookie };
}

/** Ends this user's grants to this patient (the grant's hours ran out). */
export async function endGrants(t: TestApp, userId: string, patientId: number): Promise<void> {
  await t.db.execute(sql`UPDATE access_grants SET expires_at = now() - interval '1 minute'
                         WHERE user_id = ${userId} AND patient_id = ${patientId}`);
}

type Failure = { kind: 'cut' | 'lose' } | { kind: 'proxy'; status: number };
/** Which matching requests fail: `times` of them, after letting `skip` pass. */
export interface Which {
  times?: number;
  skip?: number;
}

/** The link to the server: up or down, and failures of the link itself for the next requests that match. */
export interface Link extends NetworkWatch {
  set(online: boolean): void;
  /** The next requests whose path contains `path` get no answer (thrown before they leave). */
  cut(path: string, which?: Which): void;
  /** The next requests whose path contains `path` are answered `status` by a proxy (the app never sees them). */
  proxy(status: number, path: string, which?: Which): void;
  /** The next requests whose path contains `path` reach the app, and its answer is lost on the way back. */
  loseAnswer(path: string, which?: Which): void;
  fetch: typeof fetch;
}

export function testLink(online = false): Link {
  const listeners = new Set<() => void>();
  const failures: { path: string; times: number; skip: number; failure: Failure }[] = [];
  const plan = (path: string, which: Which | undefined, failure: Failure): void =>
    void failures.push({ path, times: which?.times ?? 1, skip: which?.skip ?? 0, failure });
  return {
    online: () => online,
    subscribe: (l) => (listeners.add(l), () => listeners.delete(l)),
    set(v) {
      online = v;
      for (const l of [...listeners]) l();
    },
    cut: (path, which) => plan(path, which, { kind: 'cut' }),
    proxy: (status, path, which) => plan(path, which, { kind: 'proxy', status }),
    loseAnswer: (path, which) => plan(path, which, { kind: 'lose' }),
    fetch: async (input, init) => {
      const planned = failures.find((f) => f.times > 0 && String(input).includes(f.path));
      if (!planned) return globalThis.fetch(input, init);
      if (planned.skip > 0) {
        planned.skip--;
        return globalThis.fetch(input, init);
      }
      planned.times--;
      const { failure } = planned;
      if (failure.kind === 'cut') throw new TypeError('Failed to fetch');
      if (failure.kind === 'proxy') return new Response('<html>Service Unavailable</html>', { status: failure.status });
      await globalThis.fetch(input, init);
      throw new TypeError('Failed to fetch');
    },
  };
}

export interface TestDevice {
  store: MemoryStore;
  link: Link;
  /** The engine of the page now loaded. */
  engine: OfflineDeviceEngine;
  flag(): DeviceFlag | null;
  /** Moves the device's clock on. */
  advance(ms: number): void;
  /** The page reloaded: the old engine is gone, a new one reads the same store, flag and clock. */
  reload(): OfflineDeviceEngine;
  dispose(): void;
}

/**
 * A device: its store, flag (in memory, or the browser's localStorage with `browserFlag`), link and clock. No timed
 * retry fires inside a test (each test syncs when it means to).
 */
export function testDevice(options: { online?: boolean; browserFlag?: boolean } = {}): TestDevice {
  const store = new MemoryStore();
  const link = testLink(options.online ?? false);
  let flag: DeviceFlag | null = null;
  let now = Date.now();
  const make = (): OfflineDeviceEngine =>
    new OfflineDeviceEngine({
      store,
      network: link,
      fetch: link.fetch,
      now: () => new Date(now),
      ...(options.browserFlag ? {} : { flag: { read: () => flag, set: (f: DeviceFlag) => (flag = f), clear: () => (flag = null) } }),
      pinIterations: TEST_PIN_ITERATIONS,
      retryBaseMs: 3_600_000,
    });
  const device: TestDevice = {
    store,
    link,
    engine: make(),
    flag: () => flag,
    advance: (ms) => void (now += ms),
    reload() {
      device.engine.dispose();
      device.engine = make();
      return device.engine;
    },
    dispose: () => device.engine.dispose(),
  };
  return device;
}
