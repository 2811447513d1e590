import '../test/dom';
// Issue 27: the router opens the offline area on a device with offline mode whose server cannot be reached (here no
// server at all: every request fails as on a dropped link), instead of an endless "checking"; /offline on a device
// without offline mode says so. The engine is an in-memory one (test/offline-engine.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import i18n from 'i18next';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { OfflineEngineProvider } from '../features/offline/components/engine-context';
import { MemoryEngine, setTestDeviceFlag } from '../test/offline-engine';
import { renderWithApp, switchLanguage } from '../test/render';
import { AppRouter } from './router';

const o = (key: string) => i18n.t(`offline:${key}`);

function renderAt(path: string, engine: MemoryEngine) {
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
  localStorage.clear();
});

describe('The router on a device with offline mode', () => {
  it('opens the offline area, PIN first, when the server cannot be reached (English)', async () => {
    await switchLanguage('en');
    setTestDeviceFlag(true);
    renderAt('/', new MemoryEngine({ pin: '246810' }));
    // The status check is retried twice (SPEC §9) before the link counts as down.
    expect(await screen.findByRole('heading', { level: 1, name: o('area.title') }, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: o('unlock.title') })).toBeTruthy();
  });

  it('says at /offline that offline mode is not on when the device has no flag (Afrikaans)', async () => {
    await switchLanguage('af');
    renderAt('/offline', new MemoryEngine());
    expect(await screen.findByText(o('area.off'))).toBeTruthy();
    expect(screen.queryByRole('heading', { name: o('unlock.title') })).toBeNull();
  });
});
