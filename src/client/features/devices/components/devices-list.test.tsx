import '../../../test/dom';
// Issue 27 item 2 rendered against the real server: the administrator's list of devices with offline mode (user,
// facility, name, last contact, status); Revoke asks for a reason (none: nothing sent) and then revokes with one POST:
// the device's next contact answers `revoked`. The texts are the chosen language's.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { deviceApi, offlineUser, type OfflineUser } from '../../../../server/test/offline-fixtures';
import { signInAs } from '../../../../server/test/staff';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { DevicesList } from './devices-list';

const devices: OfflineUser[] = [];
const server = realServer(async (t) => {
  devices.push(await offlineUser(t, { label: 'Reception laptop' }));
  devices.push(await offlineUser(t, { label: 'Ward tablet' }));
  return (await signInAs(t, 2)).cookie;
});
const d = (key: string, options?: Record<string, unknown>) => i18n.t(`offline:devices.${key}`, options);
/** The fixtures' staff are named after their role (server/test/staff.ts): doctors here. */
const DOCTOR = 'Test Role3';

describe('Devices with offline mode', () => {
  it('lists each device and revokes one only with a reason (English)', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    renderWithApp(<DevicesList />);
    const laptop = devices[0]!;
    const revoke = await screen.findByRole('button', { name: d('revokeLabel', { label: 'Reception laptop', user: DOCTOR }) });
    expect(screen.getByText('Ward tablet')).toBeTruthy();
    expect(screen.getAllByText(d('status.active'))).toHaveLength(2);
    await user.click(revoke);
    const dialog = await screen.findByRole('dialog', { name: d('revokeTitle') });
    await user.click(within(dialog).getByRole('button', { name: d('revoke') }));
    expect(await within(dialog).findByText(d('reasonRequired'))).toBeTruthy();
    expect(server.transport.sent.filter((r) => r.method === 'POST')).toEqual([]);
    await user.type(within(dialog).getByLabelText(d('reason'), { exact: false }), 'Lost on the bus');
    await user.click(within(dialog).getByRole('button', { name: d('revoke') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.transport.sent.filter((r) => r.method === 'POST').map((r) => [r.url, r.status, r.body])).toEqual([
      [`/api/devices/${laptop.deviceId}/revoke`, 200, { reason: 'Lost on the bus' }],
    ]);
    expect(await screen.findByText(d('status.revoked'))).toBeTruthy();
    const contact = await deviceApi(server.t, laptop.cookie, laptop.deviceId).contact();
    expect(contact.json<{ status: string }>().status).toBe('revoked');
  });

  it('shows the revoked device without a Revoke button (Oshiwambo)', async () => {
    await switchLanguage('ng');
    renderWithApp(<DevicesList />);
    expect(await screen.findByText(d('status.revoked'))).toBeTruthy();
    expect(screen.getAllByRole('button', { name: new RegExp(`^${d('revoke')}`) })).toHaveLength(1);
  });
});
