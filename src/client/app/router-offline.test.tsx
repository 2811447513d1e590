import '../test/dom';
// Issue 27: the router opens the offline area on a device with offline mode whose server cannot be reached (here no
// server at all: every request fails as on a dropped link), instead of an endless "checking"; /offline on a device
// without offline mode says so. The real engine over a store in memory (test/offline-device.ts), its flag in this
// browser's localStorage as on a device; switched on against the real server, which is then out of reach.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import i18n from '../lib/i18n';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { OfflineEngineProvider } from '../features/offline/components/engine-context';
import type { OfflineEngine } from '../features/offline/engine/offline-engine';
import { offlineDeviceId } from '../features/offline/device-flag';
import { createTestApp, type TestApp } from '../../server/test/test-app';
import { installAppTransport } from '../test/app-transport';
import { offlineClinician, testDevice, type TestDevice } from '../test/offline-device';
import { renderWithApp, switchLanguage } from '../test/render';
import { AppRouter } from './router';

const o = (key: string) => i18n.t(`offline:${key}`);

let t: TestApp;
let cookie: string;
const devices: TestDevice[] = [];
beforeAll(async () => {
  t = await createTestApp();
  ({ cookie } = await offlineClinician(t));
});
afterAll(async () => {
  await t?.close();
});

function renderAt(path: string, engine: OfflineEngine) {
  return renderWithApp(
    <OfflineEngineProvider load={async () => engine}>
      <Router hook={memoryLocation({ path }).hook}>
        <AppRouter />
      </Router>
    </OfflineEngineProvider>,
  );
}

afterEach(() => {
  cleanup();
  for (const d of devices.splice(0)) d.dispose();
  localStorage.clear();
});

/** A device with offline mode switched on against the real server, then reloaded (locked) with no server in reach. */
async function switchedOnDevice(): Promise<TestDevice> {
  const d = testDevice({ browserFlag: true });
  devices.push(d);
  const transport = installAppTransport(t.app, cookie);
  try {
    await d.engine.enable('Clinic tablet', '246810');
    await d.engine.refresh();
  } finally {
    transport.restore();
  }
  d.reload();
  await d.engine.ready;
  return d;
}

describe('The router on a device with offline mode', () => {
  it('opens the offline area, PIN first, when the server cannot be reached (English)', async () => {
    await switchLanguage('en');
    const d = await switchedOnDevice();
    expect(offlineDeviceId()).toBe(d.engine.status().deviceId);
    expect(d.engine.status()).toMatchObject({ enabled: true, unlocked: false });
    renderAt('/', d.engine);
    // The status check is retried twice (SPEC §9) before the link counts as down.
    expect(await screen.findByRole('heading', { level: 1, name: o('area.title') }, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: o('unlock.title') })).toBeTruthy();
  });

  it('says at /offline that offline mode is not on when the device has no flag (Afrikaans)', async () => {
    await switchLanguage('af');
    const d = testDevice({ browserFlag: true });
    devices.push(d);
    renderAt('/offline', d.engine);
    expect(await screen.findByText(o('area.off'))).toBeTruthy();
    expect(screen.queryByRole('heading', { name: o('unlock.title') })).toBeNull();
  });
});
