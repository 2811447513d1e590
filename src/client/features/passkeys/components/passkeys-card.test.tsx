import '../../../test/dom';
// The passkeys card (decision 026) rendered with Testing Library against the real server: a passkey registered with
// the test authenticator is listed by name; removing it is one DELETE; a role that keeps its second factor is told why
// it cannot remove its last one, in the user's language; an empty name sends nothing.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { sql } from 'drizzle-orm';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { createStaffUser, signIn } from '../../../../server/test/staff';
import { createTestApp, type TestApp } from '../../../../server/test/test-app';
import { TestAuthenticator } from '../../../../server/test/webauthn-authenticator';
import { installAppTransport, type AppTransport } from '../../../test/app-transport';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { PasskeysCard } from './passkeys-card';

let t: TestApp;
let transport: AppTransport | undefined;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => cleanup());
afterEach(() => {
  transport?.restore();
  transport = undefined;
});

/** A signed-in user of this role with one passkey registered through the real API, and the device that holds it. */
async function userWithDevice(roleId: number, name: string): Promise<{ cookie: string; device: TestAuthenticator }> {
  const user = await createStaffUser(t.db, { roleId });
  const cookie = await signIn(t.app, user.email, user.password);
  const device = new TestAuthenticator({ origin: t.config.webauthn.origins[0]! });
  const options = await t.app.inject({ method: 'POST', url: '/api/auth/passkeys/registration-options', headers: { cookie } });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/passkeys',
    headers: { cookie },
    payload: { name, response: device.register(options.json()) },
  });
  expect(res.statusCode).toBe(201);
  return { cookie, device };
}

/** The same user's session cookie alone. */
const userWithPasskey = async (roleId: number, name: string): Promise<string> => (await userWithDevice(roleId, name)).cookie;

/** Remove, then the confirmation's own button (issue 21 item 17: Remove never acts on one click). */
async function removeConfirmed(user: ReturnType<typeof userEvent.setup>, name: string): Promise<void> {
  await user.click(screen.getByRole('button', { name: i18n.t('common:passkeys.removeLabel', { name }) }));
  const dialog = await screen.findByRole('dialog', { name: i18n.t('common:passkeys.removeConfirmTitle') });
  await user.click(within(dialog).getByRole('button', { name: i18n.t('common:passkeys.removeConfirm') }));
}

describe('Passkeys card', () => {
  it('lists the passkey by name; Remove asks first, Cancel keeps it, and the confirmation removes it with one DELETE', async () => {
    await switchLanguage('en');
    transport = installAppTransport(t.app, await userWithPasskey(5, 'Front desk PC'));
    const user = userEvent.setup();
    renderWithApp(<PasskeysCard />);
    const item = await screen.findByTestId('passkey-item');
    expect(within(item).getByText('Front desk PC')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: i18n.t('common:passkeys.removeLabel', { name: 'Front desk PC' }) }));
    const dialog = await screen.findByRole('dialog', { name: i18n.t('common:passkeys.removeConfirmTitle') });
    expect(within(dialog).getByText(/Front desk PC/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: i18n.t('common:passkeys.cancel') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(transport.sent.filter((r) => r.method === 'DELETE')).toHaveLength(0);
    expect(screen.getByTestId('passkey-item')).toBeTruthy();
    await removeConfirmed(user, 'Front desk PC');
    await screen.findByText(i18n.t('common:passkeys.none'));
    expect(transport.sent.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });

  it('tells an Oshiwambo-speaking doctor in Oshiwambo why the last passkey stays', async () => {
    await switchLanguage('ng');
    transport = installAppTransport(t.app, await userWithPasskey(3, 'Ward tablet'));
    const user = userEvent.setup();
    renderWithApp(<PasskeysCard />);
    await screen.findByTestId('passkey-item');
    await removeConfirmed(user, 'Ward tablet');
    await screen.findByText(i18n.t('common:errors.SECOND_FACTOR_REQUIRED_BY_ROLE'));
    expect(screen.getByTestId('passkey-item')).toBeTruthy();
  });

  it('checks the name before asking the device or the server', async () => {
    await switchLanguage('af');
    const w = window as unknown as { PublicKeyCredential?: unknown };
    w.PublicKeyCredential = function PublicKeyCredential() {}; // jsdom has no WebAuthn: show the form
    try {
      transport = installAppTransport(t.app, await userWithPasskey(5, 'Laptop'));
      const user = userEvent.setup();
      renderWithApp(<PasskeysCard />);
      await screen.findByTestId('passkey-item');
      const sentBefore = transport.sent.length;
      await user.click(screen.getByRole('button', { name: i18n.t('common:passkeys.add') }));
      const field = screen.getByLabelText(i18n.t('common:passkeys.name'), { exact: false });
      await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
      const described = field
        .getAttribute('aria-describedby')!
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent);
      expect(described).toContain(i18n.t('validation:passkeyName'));
      expect(transport.sent.length).toBe(sentBefore);
    } finally {
      delete w.PublicKeyCredential;
    }
  });
  it('asks a stale session to prove the second factor again, then removes the passkey it was asked to', async () => {
    await switchLanguage('en');
    const { cookie, device } = await userWithDevice(5, 'Ward tablet');
    // The second factor was proved when the passkey was added; the desk is then left for a quarter of an hour.
    await t.db.execute(sql`UPDATE session_reauth SET verified_at = verified_at - interval '15 minutes'`);
    transport = installAppTransport(t.app, cookie);
    const user = userEvent.setup();
    const prove = async (): Promise<void> => {
      const options = await t.app.inject({
        method: 'POST',
        url: '/api/auth/passkey/options',
        headers: { cookie },
        payload: { purpose: 'reauth' },
      });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/reauth/passkey',
        headers: { cookie },
        payload: { response: device.assert(options.json()) },
      });
      expect(res.statusCode).toBe(200);
    };
    renderWithApp(
      <PasskeysCard
        reauth={(onDone, cancel, intro) => (
          <div>
            <p>{intro}</p>
            <button type="button" onClick={() => void prove().then(onDone)}>
              prove
            </button>
            {cancel}
          </div>
        )}
      />,
    );
    await screen.findByTestId('passkey-item');
    await removeConfirmed(user, 'Ward tablet');
    expect(await screen.findByText(i18n.t('common:passkeys.reauthIntro'))).toBeTruthy();
    expect(screen.getByTestId('passkey-item')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'prove' }));
    await screen.findByText(i18n.t('common:passkeys.none'));
    expect(screen.queryByText(i18n.t('common:passkeys.reauthIntro'))).toBeNull();
    expect(transport.sent.filter((r) => r.method === 'DELETE').map((r) => r.status)).toEqual([403, 200]);
  });
});
