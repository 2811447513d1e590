import '../test/dom';
// Signing out never silently loses offline changes (issue 27 "nothing is lost", decision 061): the staff header with
// the real offline engine over a store in memory and the real server (its device routes, its sign-out). Changes still
// waiting after the last sync keep the store and the session and open a dialog ("Stay signed in" focused); the
// destructive choice discards each change the server can be told of (audited) and wipes; with nothing waiting the
// sign-out wipes at once, as before.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sql } from 'drizzle-orm';
import type { CurrentUser } from '../../contracts/auth';
import { SAMPLE_INPUTS } from '../../server/test/record-samples';
import { queryOne } from '../../server/test/sql';
import { createTestApp, type TestApp } from '../../server/test/test-app';
import { installAppTransport, type AppTransport } from '../test/app-transport';
import { offlineClinician, TEST_PIN_ITERATIONS } from '../test/offline-device';
import { renderWithApp, switchLanguage } from '../test/render';
import { hasOfflineDevice } from '../features/offline/device-flag';
import { OfflineDeviceEngine, type NetworkWatch } from '../features/offline/engine/engine';
import { MemoryStore } from '../features/offline/engine/memory-store';
import { provideOfflineEngine } from '../features/offline/load-engine';
import { StaffHeader } from './staff-header';

let t: TestApp;
let transport: AppTransport | null = null;
let engine: OfflineDeviceEngine | null = null;

beforeAll(async () => {
  t = await createTestApp();
  await switchLanguage('en');
});
afterEach(() => {
  cleanup();
  engine?.dispose();
  engine = null;
  transport?.restore();
  transport = null;
  localStorage.clear();
});
afterAll(async () => {
  await t?.close();
});

const REGISTRATION = {
  firstName: 'Johanna',
  lastName: 'Nangolo',
  sex: 'Female' as const,
  dateOfBirth: '1990-01-02',
  contactNumber: '',
  address: '',
  nextOfKin: '',
  nextOfKinContact: '',
};

/**
 * A doctor (without patients.create) signed in on the page (a session of their own: the sign-outs below end it) with
 * offline mode switched on through the real device routes, the flag in localStorage as the header reads it; `link` says whether the device is online and whether the server answers it.
 */
async function signedInDevice() {
  const { cookie } = await offlineClinician(t, []);
  transport = installAppTransport(t.app, cookie);
  const link = { online: true, reachable: true, unanswered: [] as string[] };
  const network: NetworkWatch = { online: () => link.online, subscribe: () => () => undefined };
  const store = new MemoryStore();
  const device = new OfflineDeviceEngine({
    store,
    network,
    // The server's answers, or none at all (the TypeError a browser's fetch rejects with).
    fetch: (input, init) => {
      if (link.reachable) return globalThis.fetch(input, init);
      link.unanswered.push(String(input));
      return Promise.reject(new TypeError('Failed to fetch'));
    },
    pinIterations: TEST_PIN_ITERATIONS,
    retryBaseMs: 3_600_000,
  });
  engine = device;
  provideOfflineEngine(device);
  await device.enable('Clinic laptop', '482913');
  await device.refresh();
  const me = await globalThis.fetch('/api/auth/user');
  const current = (await me.json()) as CurrentUser;
  return { engine: device, store, link, current };
}

const signedOut = (): boolean => transport!.sent.some((r) => r.method === 'POST' && r.url === '/api/auth/logout');
const sessionHolds = async (): Promise<boolean> => (await globalThis.fetch('/api/auth/user')).status === 200;

describe('sign-out with offline mode', () => {
  it('with a change waiting and the server unreachable: keeps the store and the session and asks; "Stay signed in" keeps everything', async () => {
    const { engine, store, link, current } = await signedInDevice();
    link.reachable = false;
    const waiting = await engine.queueRegistration({ ...REGISTRATION });
    renderWithApp(<StaffHeader user={current} onProfile={() => undefined} />);
    const user = userEvent.setup();
    const logout = screen.getByRole('button', { name: 'Log out' });
    await user.click(logout);

    const dialog = await screen.findByRole('dialog', { name: 'Changes not sent' });
    expect(within(dialog).getByText(/^1 change made on this device has not reached the server\./)).toBeTruthy();
    expect(within(dialog).getByText(/^Stay signed in and send it when the network is back/)).toBeTruthy();
    const stay = within(dialog).getByRole('button', { name: 'Stay signed in' });
    expect(document.activeElement).toBe(stay);
    expect(within(dialog).getByRole('button', { name: 'Sign out and delete 1 unsent change' })).toBeTruthy();
    // The sync was tried at sign-out (no answer), nothing was wiped, and the session was not ended.
    expect(link.unanswered.filter((url) => url.endsWith('/sync')).length).toBeGreaterThanOrEqual(2); // queued, sign-out
    expect(engine.status()).toMatchObject({ enabled: true, unlocked: true, waiting: 1 });
    expect(await store.keys('queue')).toEqual([waiting.clientId]);
    expect(hasOfflineDevice()).toBe(true);
    expect(signedOut()).toBe(false);

    // Enter on the focused default: the dialog closes and everything is as it was. (Focus goes back to Log out in a
    // browser: jsdom lays nothing out, so lib/focus.ts's canTakeFocus finds no element to return it to here.)
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(engine.status()).toMatchObject({ enabled: true, unlocked: true, waiting: 1 });
    expect(await store.keys('queue')).toEqual([waiting.clientId]);
    expect(hasOfflineDevice()).toBe(true);
    expect(signedOut()).toBe(false);
    expect(await sessionHolds()).toBe(true);
  });

  it('the destructive choice deletes the unsent change with the store and signs out', async () => {
    const { engine, store, link, current } = await signedInDevice();
    link.online = false;
    await engine.queueRegistration({ ...REGISTRATION });
    renderWithApp(<StaffHeader user={current} onProfile={() => undefined} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    const dialog = await screen.findByRole('dialog', { name: 'Changes not sent' });
    expect(signedOut()).toBe(false);

    // By keyboard: Tab from the default to the destructive choice.
    await user.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Sign out and delete 1 unsent change' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(signedOut()).toBe(true));
    expect(engine.status()).toMatchObject({ enabled: false, waiting: 0, wipedBecause: 'sign-out' });
    expect(await store.keys('queue')).toEqual([]);
    expect(await store.get('meta', 'meta')).toBeUndefined();
    expect(hasOfflineDevice()).toBe(false);
    expect(await sessionHolds()).toBe(false);
  });

  it('where the server answers, each refused or waiting change is discarded through it (audited) before the wipe', async () => {
    const { engine, current } = await signedInDevice();
    // A doctor may not register patients: the registration is refused, its entry waits for it.
    const registration = await engine.queueRegistration({ ...REGISTRATION });
    const entry = await engine.queueEntry({ clientId: registration.clientId }, 'allergies', SAMPLE_INPUTS.allergies);
    await engine.syncNow();
    expect(engine.status().attention.map((w) => w.clientId)).toEqual([registration.clientId]);
    renderWithApp(<StaffHeader user={current} onProfile={() => undefined} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    const dialog = await screen.findByRole('dialog', { name: 'Changes not sent' });
    expect(within(dialog).getByText(/^2 changes made on this device have not reached the server\./)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Sign out and delete 2 unsent changes' }));
    await waitFor(() => expect(signedOut()).toBe(true));
    expect(engine.status()).toMatchObject({ enabled: false, wipedBecause: 'sign-out' });

    const discarded = async (clientId: string) =>
      (await queryOne<{ n: number }>(
        t.db,
        sql`SELECT count(*)::int AS n FROM audit_logs
              WHERE resource_type = 'DEVICE' AND action = 'DELETE' AND new_values->>'discarded' = ${clientId}`,
      ))!.n;
    expect(await discarded(registration.clientId)).toBe(1);
    expect(await discarded(entry.clientId)).toBe(1);
  });

  it('asks in Afrikaans and Oshiwambo', async () => {
    const { engine, link, current } = await signedInDevice();
    link.online = false;
    await engine.queueRegistration({ ...REGISTRATION });
    await engine.queueRegistration({ ...REGISTRATION, lastName: 'Shikongo' });
    const user = userEvent.setup();
    for (const [lang, logout, title, stay, remove] of [
      ['af', 'Meld af', 'Veranderinge nie gestuur nie', 'Bly aangemeld', 'Meld af en vee 2 ongestuurde veranderinge uit'],
      ['ng', 'Zi mo', 'Omalunduluko inaga tumwa', 'Kala mo', 'Zi mo e to dhimi po omalunduluko 2 inaga tumwa'],
    ] as const) {
      await switchLanguage(lang);
      const { unmount } = renderWithApp(<StaffHeader user={current} onProfile={() => undefined} />);
      await user.click(screen.getByRole('button', { name: logout }));
      const dialog = await screen.findByRole('dialog', { name: title });
      expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: stay }));
      expect(within(dialog).getByRole('button', { name: remove })).toBeTruthy();
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      unmount();
    }
    await switchLanguage('en');
    expect(engine.status()).toMatchObject({ enabled: true, waiting: 2 });
    expect(signedOut()).toBe(false);
  });

  it('with nothing waiting, sign-out wipes at once and signs out, as before', async () => {
    const { engine, store, current } = await signedInDevice();
    renderWithApp(<StaffHeader user={current} onProfile={() => undefined} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(signedOut()).toBe(true));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(engine.status()).toMatchObject({ enabled: false, wipedBecause: 'sign-out' });
    expect(await store.get('meta', 'meta')).toBeUndefined();
    expect(hasOfflineDevice()).toBe(false);
    expect(await sessionHolds()).toBe(false);
  });
});
