import '../../../test/dom';
// Issue 27 item 2: the profile's offline-mode card. The device's name and PIN are checked before anything is asked of
// the engine (the name by the server's contract, the PIN: 6+ digits, twice); the server's REAUTH_REQUIRED shows the
// re-authentication step and, once proven, the same request again; any other refusal is shown in the user's language;
// "Switch off on this device" asks first, then wipes. The engine is an in-memory one (test/offline-engine.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { ApiError } from '../../../lib/api-error';
import { MemoryEngine, setTestDeviceFlag, testDeviceFlagSet } from '../../../test/offline-engine';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { EnableOfflineCard } from './enable-offline-card';

const o = (key: string) => i18n.t(`offline:enable.${key}`);

function renderCard(engine: MemoryEngine) {
  return renderWithApp(
    <EnableOfflineCard
      load={async () => engine}
      reauth={(onDone, cancel, intro) => (
        <div>
          <p>{intro}</p>
          <button type="button" onClick={onDone}>
            proven
          </button>
          {cancel}
        </div>
      )}
    />,
  );
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('Offline mode on this device', () => {
  it('refuses a missing name, a short PIN and two different PINs without asking the engine (English)', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const engine = new MemoryEngine();
    renderCard(engine);
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
    expect(engine.calls).toEqual([]);
  });

  it('asks for the second factor on REAUTH_REQUIRED, then enables with the same name and PIN (Afrikaans)', async () => {
    await switchLanguage('af');
    const user = userEvent.setup();
    const engine = new MemoryEngine();
    engine.enableAnswers = [Object.assign(new Error('403: REAUTH_REQUIRED'), { status: 403, code: 'REAUTH_REQUIRED' })];
    renderCard(engine);
    await user.type(screen.getByLabelText(new RegExp(`^${o('label')}`)), '  Spreekkamer 2 ');
    await user.type(screen.getByLabelText(new RegExp(`^${o('pin')} \\*`)), '20261128');
    await user.type(screen.getByLabelText(o('pinAgain'), { exact: false }), '20261128');
    await user.click(screen.getByRole('button', { name: o('submit') }));
    expect(await screen.findByText(o('reauthIntro'))).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'proven' }));
    expect(await screen.findByText(o('isOn'))).toBeTruthy();
    expect(engine.calls).toEqual([
      { method: 'enable', args: ['Spreekkamer 2', '20261128'] },
      { method: 'enable', args: ['Spreekkamer 2', '20261128'] },
    ]);
    expect(testDeviceFlagSet()).toBe(true);
  });

  it("shows a refusal in the user's language and stays off (Oshiwambo)", async () => {
    await switchLanguage('ng');
    const user = userEvent.setup();
    const engine = new MemoryEngine();
    // The engine's own request error carries the status and code (engine/http.ts), the api client's an ApiError.
    const engineRefusal = Object.assign(new Error('403: FORBIDDEN'), { status: 403, code: 'FORBIDDEN' });
    engine.enableAnswers = [
      engineRefusal,
      new TypeError('Failed to fetch'),
      new ApiError(502, null, [], {}, '502: Bad Gateway'),
      new ApiError(403, 'OFFLINE_NEEDS_SECOND_FACTOR', [], {}, '403: OFFLINE_NEEDS_SECOND_FACTOR'),
    ];
    renderCard(engine);
    await user.type(screen.getByLabelText(new RegExp(`^${o('label')}`)), 'Okamashina');
    await user.type(screen.getByLabelText(new RegExp(`^${o('pin')} \\*`)), '654321');
    await user.type(screen.getByLabelText(o('pinAgain'), { exact: false }), '654321');
    await user.click(screen.getByRole('button', { name: o('submit') }));
    const alert = await screen.findByText(i18n.t('common:errors.FORBIDDEN'), { selector: '[data-form-alert] p' });
    expect(alert).toBeTruthy();
    await user.click(screen.getByRole('button', { name: o('submit') }));
    expect(await screen.findByText(o('failedOffline'), { selector: '[data-form-alert] p' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: o('submit') }));
    expect(await screen.findByText(i18n.t('common:anError'), { selector: '[data-form-alert] p' })).toBeTruthy();
    // A user without a second factor is told why (the server's OFFLINE_NEEDS_SECOND_FACTOR).
    await user.click(screen.getByRole('button', { name: o('submit') }));
    expect(await screen.findByText(i18n.t('common:errors.OFFLINE_NEEDS_SECOND_FACTOR'), { selector: '[data-form-alert] p' })).toBeTruthy();
    expect(screen.queryByText(o('isOn'))).toBeNull();
    expect(testDeviceFlagSet()).toBe(false);
  });

  it('switches off only after the confirmation, and wipes the device (English)', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    setTestDeviceFlag(true);
    const engine = new MemoryEngine({ pin: '123456' });
    renderCard(engine);
    await user.click(screen.getByRole('button', { name: o('switchOff') }));
    await screen.findByRole('dialog', { name: o('switchOffTitle') });
    await user.click(screen.getByRole('button', { name: o('cancel') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(engine.calls).toEqual([]);
    await user.click(screen.getByRole('button', { name: o('switchOff') }));
    const dialog = await screen.findByRole('dialog', { name: o('switchOffTitle') });
    await user.click(within(dialog).getByRole('button', { name: o('switchOff') }));
    expect(await screen.findByRole('button', { name: o('submit') })).toBeTruthy();
    expect(engine.calls).toEqual([{ method: 'wipe', args: ['user'] }]);
    expect(testDeviceFlagSet()).toBe(false);
  });
});
