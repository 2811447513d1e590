import '../../../test/dom';
// Issue 27 item 2: the profile's offline-mode card. The device's name and PIN are checked before anything is asked of
// the engine (the name by the server's contract, the PIN: 6+ digits, twice); the server's REAUTH_REQUIRED shows the
// re-authentication step and, once proven, the same request again; any other refusal is shown in the user's language;
// "Switch off on this device" asks first, then wipes. The real engine over a store in memory (test/offline-device.ts),
// its flag in this browser's localStorage, and the real server on a clock of the test's, each refusal from a real
// cause (a stale second factor, a role without records.read, a user with no second factor); the link's own failures
// (no answer, a proxy's 502) are the link's.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { ROLE_IDS } from '../../../../contracts/constants';
import { REAUTH_FRESH_MINUTES } from '../../../../contracts/mfa';
import { enrolTotp, totpCode } from '../../../../server/test/offline-fixtures';
import { createStaffUser, signIn, signInAs } from '../../../../server/test/staff';
import { createTestApp, type TestApp } from '../../../../server/test/test-app';
import { installAppTransport, type AppTransport } from '../../../test/app-transport';
import { testDevice, type TestDevice } from '../../../test/offline-device';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { offlineDeviceId } from '../device-flag';
import { EnableOfflineCard } from './enable-offline-card';

const o = (key: string) => i18n.t(`offline:enable.${key}`);

let t: TestApp;
let clock = Date.now();
let doctor: { cookie: string; secret: string };
const transports: AppTransport[] = [];
const devices: TestDevice[] = [];

beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(clock) });
  const user = await createStaffUser(t.db, { roleId: ROLE_IDS.doctor });
  const cookie = await signIn(t.app, user.email, user.password);
  doctor = { cookie, secret: await enrolTotp(t, cookie, t.config.now()) };
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  cleanup();
  for (const tr of transports.splice(0).reverse()) tr.restore();
  for (const d of devices.splice(0)) d.dispose();
  localStorage.clear();
});

/** The page's requests go to the real app as the user holding `cookie` (until the test ends or the next call). */
function signedIn(cookie: string): AppTransport {
  for (const tr of transports.splice(0).reverse()) tr.restore();
  const tr = installAppTransport(t.app, cookie);
  transports.push(tr);
  return tr;
}

/** The doctor proves their second factor again in this session (a minute on: a fresh code). */
async function proveSecondFactor(): Promise<void> {
  clock += 60_000;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/reauth',
    headers: { cookie: doctor.cookie },
    payload: { code: totpCode(doctor.secret, new Date(clock)) },
  });
  expect(res.statusCode).toBe(200);
}

function newDevice(): TestDevice {
  const d = testDevice({ browserFlag: true, online: true });
  devices.push(d);
  return d;
}

function renderCard(device: TestDevice) {
  return renderWithApp(
    <EnableOfflineCard
      load={async () => device.engine}
      reauth={(onDone, cancel, intro) => (
        <div>
          <p>{intro}</p>
          <button type="button" onClick={() => void proveSecondFactor().then(onDone)}>
            proven
          </button>
          {cancel}
        </div>
      )}
    />,
  );
}

/** The requests to switch offline mode on (POST /api/devices). */
const enableRequests = (tr: AppTransport) => tr.sent.filter((r) => r.url === '/api/devices');

describe('Offline mode on this device', () => {
  it('refuses a missing name, a short PIN and two different PINs without asking the engine (English)', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const transport = signedIn(doctor.cookie);
    const device = newDevice();
    renderCard(device);
    await user.click(screen.getByRole('button', { name: o('submit') }));
    expect(screen.getByText(i18n.t('validation:deviceLabelRequired'))).toBeTruthy();
    expect(screen.getByText(o('pinRule'))).toBeTruthy();
    await user.type(screen.getByLabelText(new RegExp(`^${o('label')}`)), 'Reception laptop');
    await user.type(screen.getByLabelText(new RegExp(`^${o('pin')} \\*`)), '12a456');
    await user.click(screen.getByRole('button', { name: o('submit') }));
    expect(screen.getByText(o('pinRule'))).toBeTruthy();
    await user.clear(screen.getByLabelText(new RegExp(`^${o('pin')} \\*`)));
    await user.type(screen.getByLabelText(new RegExp(`^${o('pin')} \\*`)), '123456');
    await user.type(screen.getByLabelText(o('pinAgain'), { exact: false }), '123457');
    await user.click(screen.getByRole('button', { name: o('submit') }));
    expect(screen.getByText(o('pinMismatch'))).toBeTruthy();
    expect(screen.queryByText(i18n.t('validation:deviceLabelRequired'))).toBeNull();
    expect(transport.sent).toEqual([]);
    expect(device.engine.status().enabled).toBe(false);
  });

  it('asks for the second factor on REAUTH_REQUIRED, then enables with the same name and PIN (Afrikaans)', async () => {
    await switchLanguage('af');
    const user = userEvent.setup();
    // The second factor was proven longer ago than the server accepts for this.
    clock += (REAUTH_FRESH_MINUTES + 1) * 60_000;
    const transport = signedIn(doctor.cookie);
    const device = newDevice();
    renderCard(device);
    await user.type(screen.getByLabelText(new RegExp(`^${o('label')}`)), '  Spreekkamer 2 ');
    await user.type(screen.getByLabelText(new RegExp(`^${o('pin')} \\*`)), '20261128');
    await user.type(screen.getByLabelText(o('pinAgain'), { exact: false }), '20261128');
    await user.click(screen.getByRole('button', { name: o('submit') }));
    expect(await screen.findByText(o('reauthIntro'))).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'proven' }));
    expect(await screen.findByText(o('isOn'))).toBeTruthy();
    expect(enableRequests(transport).map((r) => [r.method, r.url, r.body, r.status])).toEqual([
      ['POST', '/api/devices', { label: 'Spreekkamer 2' }, 403],
      ['POST', '/api/devices', { label: 'Spreekkamer 2' }, 201],
    ]);
    expect(offlineDeviceId()).toBe(device.engine.status().deviceId);
    // The store's key is wrapped under the PIN given: after a reload, that PIN opens it.
    device.link.set(false);
    expect(await device.reload().unlock('20261128')).toBe(true);
  });

  it("shows a refusal in the user's language and stays off (Oshiwambo)", async () => {
    await switchLanguage('ng');
    const user = userEvent.setup();
    // A receptionist's role has no records.read.
    signedIn((await signInAs(t, ROLE_IDS.receptionist)).cookie);
    const device = newDevice();
    renderCard(device);
    await user.type(screen.getByLabelText(new RegExp(`^${o('label')}`)), 'Okamashina');
    await user.type(screen.getByLabelText(new RegExp(`^${o('pin')} \\*`)), '654321');
    await user.type(screen.getByLabelText(o('pinAgain'), { exact: false }), '654321');
    await user.click(screen.getByRole('button', { name: o('submit') }));
    const alert = await screen.findByText(i18n.t('common:errors.PERMISSION_REQUIRED'), { selector: '[data-form-alert] p' });
    expect(alert).toBeTruthy();
    device.link.cut('/api/devices');
    await user.click(screen.getByRole('button', { name: o('submit') }));
    expect(await screen.findByText(o('failedOffline'), { selector: '[data-form-alert] p' })).toBeTruthy();
    device.link.proxy(502, '/api/devices');
    await user.click(screen.getByRole('button', { name: o('submit') }));
    expect(await screen.findByText(i18n.t('common:anError'), { selector: '[data-form-alert] p' })).toBeTruthy();
    // A user without a second factor is told why (the server's OFFLINE_NEEDS_SECOND_FACTOR).
    const noFactor = signedIn((await signInAs(t, ROLE_IDS.doctor)).cookie);
    await user.click(screen.getByRole('button', { name: o('submit') }));
    expect(await screen.findByText(i18n.t('common:errors.OFFLINE_NEEDS_SECOND_FACTOR'), { selector: '[data-form-alert] p' })).toBeTruthy();
    expect(enableRequests(noFactor).map((r) => r.status)).toEqual([403]);
    expect(screen.queryByText(o('isOn'))).toBeNull();
    expect(offlineDeviceId()).toBeNull();
    expect(device.engine.status().enabled).toBe(false);
  });

  it('switches off only after the confirmation, and wipes the device (English)', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    signedIn(doctor.cookie);
    await proveSecondFactor();
    const device = newDevice();
    await device.engine.enable('Reception laptop', '123456');
    await device.engine.refresh();
    renderCard(device);
    await user.click(screen.getByRole('button', { name: o('switchOff') }));
    await screen.findByRole('dialog', { name: o('switchOffTitle') });
    await user.click(screen.getByRole('button', { name: o('cancel') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(device.engine.status()).toMatchObject({ enabled: true, wipedBecause: null });
    await user.click(screen.getByRole('button', { name: o('switchOff') }));
    const dialog = await screen.findByRole('dialog', { name: o('switchOffTitle') });
    await user.click(within(dialog).getByRole('button', { name: o('switchOff') }));
    expect(await screen.findByRole('button', { name: o('submit') })).toBeTruthy();
    expect(device.engine.status()).toMatchObject({ enabled: false, wipedBecause: 'user' });
    expect(device.store.tables.size).toBe(0);
    expect(offlineDeviceId()).toBeNull();
  });
});
