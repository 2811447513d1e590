import '../../../test/dom';
// The offline status bar (issue 27 item 6) rendered with the real engine over a store in memory: the record's routes
// are the real server's, the device routes answer as src/contracts/offline.ts says (contract-device-routes.ts). It
// says what waits and when the device last heard the server, never "saved" before the server answered; a refused
// change is reached by keyboard, and discarded with a reason the server is told; each state is in a live region.
import { afterAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { signInAs } from '../../../../server/test/staff';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { contractDeviceRoutes } from '../engine/contract-device-routes';
import { OfflineDeviceEngine, type NetworkWatch } from '../engine/engine';
import { MemoryStore } from '../engine/memory-store';
import { provideOfflineEngine } from '../load-engine';
import { formatTime, OfflineStatusBar } from './status-bar';

realServer((t) => signInAs(t, 3).then((s) => s.cookie));

const listeners = new Set<() => void>();
let online = false;
const network: NetworkWatch = { online: () => online, subscribe: (l) => (listeners.add(l), () => listeners.delete(l)) };
const setOnline = (v: boolean): void => {
  online = v;
  listeners.forEach((l) => l());
};
const routes = contractDeviceRoutes('3', { serverTime: '', appointments: [], patients: [] });
let flag: { deviceId: string; userId: string } | null = null;
const engine = new OfflineDeviceEngine({
  store: new MemoryStore(),
  network,
  fetch: (input, init) => (String(input).startsWith('/api/devices') ? routes.fetch(input, init) : globalThis.fetch(input, init)),
  flag: { read: () => flag, set: (f) => (flag = f), clear: () => (flag = null) },
  pinIterations: 1_000,
  retryBaseMs: 3_600_000,
});
provideOfflineEngine(engine);
afterAll(() => engine.dispose());

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

describe('offline status bar', () => {
  it('says what waits offline, then what needs attention, and discards a refused change with a reason', async () => {
    await switchLanguage('en');
    await engine.enable('Reception laptop', '1234');
    const first = await engine.queueRegistration({ ...REGISTRATION });
    await engine.queueRegistration({ ...REGISTRATION, lastName: 'Shikongo' });
    renderWithApp(<OfflineStatusBar />);
    const status = screen.getByRole('status');
    expect(status).toHaveProperty('ariaLive', 'polite');
    const synced = formatTime(engine.status().lastSyncedAt!);
    await waitFor(() => expect(status.textContent).toBe(`Offline · 2 changes waiting · last synced ${synced}`));

    routes.outcomes.set(first.clientId, { outcome: 'needs_attention', code: 'VALIDATION_ERROR' });
    setOnline(true);
    await engine.syncNow();
    await waitFor(() => expect(status.textContent).toBe('Online · 1 change needs attention'));

    const user = userEvent.setup();
    const open = screen.getByRole('button', { name: '1 change needs attention' });
    while (document.activeElement !== open) await user.tab();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: '1 change needs attention' });
    expect(within(dialog).getByText('New patient · Johanna Nangolo')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Discard: New patient · Johanna Nangolo' }));
    const ask = await screen.findByRole('dialog', { name: 'Discard this change?' });
    await user.type(within(ask).getByLabelText(/^Reason/), 'Registered twice');
    await user.click(within(ask).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(status.textContent).toBe('Online'));
    expect(routes.discards).toEqual([{ clientId: first.clientId, reason: 'Registered twice', kind: 'patient' }]);
  });

  it('speaks Afrikaans and Oshiwambo', async () => {
    setOnline(false);
    await engine.queueRegistration({ ...REGISTRATION });
    await switchLanguage('af');
    const { unmount } = renderWithApp(<OfflineStatusBar />);
    expect(screen.getByTestId('offline-status').textContent).toMatch(/^Vanlyn · 1 verandering wag · laas gesinkroniseer /);
    unmount();
    await switchLanguage('ng');
    renderWithApp(<OfflineStatusBar />);
    expect(screen.getByTestId('offline-status').textContent).toMatch(/^Kapu na intaneta · Elunduluko 1 tali tegelele/);
    await switchLanguage('en');
  });
});
