import '../../../test/dom';
// Manage Users' reset of a lost second factor (decision 024; passkeys too, issue 21 item 13) rendered with Testing
// Library against the real server: users with an authenticator app or a passkey are listed with what they have; Reset
// asks for confirmation first (nothing sent), then one DELETE removes every second factor and the user leaves the
// list; the texts are the chosen language's.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { queryOne } from '../../../../server/test/sql';
import { createStaffUser, signIn, type StaffUser } from '../../../../server/test/staff';
import { createTestApp, type TestApp } from '../../../../server/test/test-app';
import { TestAuthenticator } from '../../../../server/test/webauthn-authenticator';
import { installAppTransport, type AppTransport } from '../../../test/app-transport';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { TotpResetPanel } from './totp-reset-panel';

let t: TestApp;
let transport: AppTransport;
let doctor: StaffUser;
let nurse: StaffUser;

beforeAll(async () => {
  t = await createTestApp();
  doctor = await createStaffUser(t.db, { roleId: 3, firstName: 'Selma', lastName: 'Nangolo' });
  const cookie = await signIn(t.app, doctor.email, doctor.password);
  const secret = (await t.app.inject({ method: 'POST', url: '/api/auth/mfa/totp/enrol', headers: { cookie } })).json().secret as string;
  const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();
  expect(
    (await t.app.inject({ method: 'POST', url: '/api/auth/mfa/totp/confirm', headers: { cookie }, payload: { code } })).statusCode,
  ).toBe(200);
  // A nurse whose only second factor is a passkey (issue 21 item 13).
  nurse = await createStaffUser(t.db, { roleId: 4, firstName: 'Ndapewa', lastName: 'Iipinge' });
  const nurseCookie = await signIn(t.app, nurse.email, nurse.password);
  const options = await t.app.inject({ method: 'POST', url: '/api/auth/passkeys/registration-options', headers: { cookie: nurseCookie } });
  const device = new TestAuthenticator({ origin: t.config.webauthn.origins[0]! });
  const added = await t.app.inject({
    method: 'POST',
    url: '/api/auth/passkeys',
    headers: { cookie: nurseCookie },
    payload: { name: 'Ward tablet', response: device.register(options.json()) },
  });
  expect(added.statusCode).toBe(201);
  const admin = await createStaffUser(t.db, { roleId: 1 });
  transport = installAppTransport(t.app, await signIn(t.app, admin.email, admin.password));
});
afterAll(async () => {
  transport?.restore();
  await t?.close();
});
beforeEach(() => {
  cleanup();
  transport.sent.length = 0;
});

describe('Reset a lost second factor', () => {
  it('asks first, then resets with one DELETE; the user leaves the list (Afrikaans)', async () => {
    await switchLanguage('af');
    const user = userEvent.setup();
    renderWithApp(<TotpResetPanel />);
    const name = i18n.t('security:reset.resetLabel', { name: 'Selma Nangolo' });
    const button = await screen.findByRole('button', { name });
    expect(screen.getAllByText(new RegExp(i18n.t('security:reset.hasApp'))).length).toBeGreaterThan(0);
    await user.click(button);
    await screen.findByText(i18n.t('security:reset.confirmTitle'));
    expect(transport.sent.filter((r) => r.method === 'DELETE')).toEqual([]);
    await user.click(screen.getByRole('button', { name: i18n.t('security:reset.confirm') }));
    // The dialog hides the list while open: wait for the DELETE and the dialog to close before looking at the list.
    await waitFor(() => expect(transport.sent.filter((r) => r.method === 'DELETE')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText(i18n.t('security:reset.confirmTitle'))).toBeNull());
    await waitFor(() => expect(screen.queryByRole('button', { name })).toBeNull());
    expect(transport.sent.filter((r) => r.method === 'DELETE').map((r) => [r.url, r.status])).toEqual([
      [`/api/admin/users/${doctor.id}/second-factors`, 200],
    ]);
    await waitFor(async () => {
      const row = await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM staff_totp WHERE user_id = ${doctor.id}`);
      expect(row!.n).toBe(0);
    });
  });

  it('lists a passkey-only user with the passkey and resets it (Oshiwambo)', async () => {
    await switchLanguage('ng');
    const user = userEvent.setup();
    renderWithApp(<TotpResetPanel />);
    const button = await screen.findByRole('button', { name: i18n.t('security:reset.resetLabel', { name: 'Ndapewa Iipinge' }) });
    expect(screen.getByText(new RegExp(i18n.t('security:reset.hasPasskeys', { count: 1 })))).toBeTruthy();
    await user.click(button);
    await user.click(await screen.findByRole('button', { name: i18n.t('security:reset.confirm') }));
    await screen.findByText(i18n.t('security:reset.none'));
    const row = await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM webauthn_credentials WHERE user_id = ${nurse.id}`);
    expect(row!.n).toBe(0);
  });
});
