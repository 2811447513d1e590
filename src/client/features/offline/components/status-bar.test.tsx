import '../../../test/dom';
// The offline status bar (issue 27 item 6) rendered with the real engine over a store in memory and the real server
// (its device routes too), as a doctor with an authenticator app (test/offline-device.ts). It
// says what waits and when the device last heard the server, never "saved" before the server answered; a refused
// change is reached by keyboard, and discarded with a reason the server is told; each state is in a live region.
import { afterAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { offlineClinician, testDevice } from '../../../test/offline-device';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { provideOfflineEngine } from '../load-engine';
import { formatTime, OfflineStatusBar } from './status-bar';

const server = realServer((t) => offlineClinician(t).then((c) => c.cookie));
const device = testDevice({ online: true });
const engine = device.engine;
const setOnline = (v: boolean): void => device.link.set(v);
provideOfflineEngine(engine);
afterAll(() => device.dispose());

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
    await engine.refresh();
    setOnline(false);
    // The server refuses this one (a date of birth in the future).
    const first = await engine.queueRegistration({ ...REGISTRATION, dateOfBirth: '2999-01-01' });
    await engine.queueRegistration({ ...REGISTRATION, lastName: 'Shikongo' });
    renderWithApp(<OfflineStatusBar />);
    const status = screen.getByRole('status');
    expect(status).toHaveProperty('ariaLive', 'polite');
    const synced = formatTime(engine.status().lastSyncedAt!);
    await waitFor(() => expect(status.textContent).toBe(`Offline · 2 changes waiting · last synced ${synced}`));

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
    expect(server.transport.sent.filter((r) => r.url.endsWith('/discard')).map((r) => [r.body, r.status])).toEqual([
      [{ clientId: first.clientId, reason: 'Registered twice', kind: 'patient' }, 204],
    ]);
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
