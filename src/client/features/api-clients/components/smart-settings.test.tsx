import '../../../test/dom';
// Keys and limits of a system client (decision 050) rendered with Testing Library against the real server, by keyboard:
// the dialog opens from the row with Enter, refuses text that is not a JWKS and a limit that is not a whole number
// (in Afrikaans) without a request, and the server's refusal of a private key is shown at the box; a public key and
// the limits are one PUT, stored, and the row says so. The 375 px check is in e2e/api-clients.e2e.ts.
import { describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import { CLIENT_CREATOR_PERMISSIONS, signInAsClientCreator } from '../../../../server/test/api-client-fixtures';
import { queryOne } from '../../../../server/test/sql';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { SystemClients } from './system-clients';

const NAME = 'Rundu laboratory';
const server = realServer(async (t) => {
  const { cookie } = await signInAsClientCreator(t);
  await t.app.inject({
    method: 'POST',
    url: '/api/admin/api-clients',
    headers: { cookie },
    payload: { name: NAME, scopes: ['system/Condition.read'] },
  });
  return cookie;
});

const u = (key: string, options?: Record<string, unknown>) => i18n.t(`users:clients.${key}`, options);
const label = (key: string) => (content: string) => content.trim() === u(key);

async function openByKeyboard(user: ReturnType<typeof userEvent.setup>): Promise<HTMLElement> {
  const open = await screen.findByRole('button', { name: u('smart.openClient', { name: NAME }) });
  open.focus();
  await user.keyboard('{Enter}');
  return screen.findByRole('dialog', { name: u('smart.title') });
}

describe('Keys and limits of a system client', () => {
  it('refuses text that is not a JWKS and a limit that is not a whole number, in Afrikaans, sending nothing', async () => {
    await switchLanguage('af');
    const user = userEvent.setup();
    renderWithApp(<SystemClients permissions={CLIENT_CREATOR_PERMISSIONS} />);
    const dialog = await openByKeyboard(user);
    server.transport.sent.length = 0;
    await user.click(within(dialog).getByLabelText(label('smart.jwks')));
    await user.paste('not json');
    await user.type(within(dialog).getByLabelText(label('smart.searchesPerMinute')), '2.5');
    await user.click(within(dialog).getByRole('button', { name: u('smart.save') }));
    expect(await within(dialog).findByText(i18n.t('validation:invalidJwks'))).toBeTruthy();
    expect(within(dialog).getByText(i18n.t('validation:invalidLimit'))).toBeTruthy();
    expect(within(dialog).getByLabelText(label('smart.jwks')).getAttribute('aria-invalid')).toBe('true');
    // Only the SMART configuration was read (for the token address): nothing was sent to change anything.
    expect(server.transport.sent.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('shows the refusal of a private key at the box; saves a public key and limits with one PUT', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    renderWithApp(<SystemClients permissions={CLIENT_CREATOR_PERMISSIONS} />);
    const dialog = await openByKeyboard(user);
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const box = within(dialog).getByLabelText(label('smart.jwks'));
    server.transport.sent.length = 0;
    await user.click(box);
    await user.paste(JSON.stringify({ keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'k1' }] }));
    await user.click(within(dialog).getByRole('button', { name: u('smart.save') }));
    expect(await within(dialog).findByText(i18n.t('validation:invalidJwks'))).toBeTruthy();
    const writes = () => server.transport.sent.filter((r) => r.method !== 'GET').map((r) => [r.method, r.status]);
    expect(writes()).toEqual([['PUT', 400]]);
    // The token address is the server's public one (the aud of the client's JWT), from the SMART configuration.
    expect((within(dialog).getByLabelText(label('smart.tokenEndpoint')) as HTMLInputElement).value).toBe(
      `${server.t.config.publicUrl}/fhir/R4/auth/token`,
    );

    server.transport.sent.length = 0;
    await user.clear(box);
    await user.click(box);
    await user.paste(JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1' }] }));
    await user.type(within(dialog).getByLabelText(label('smart.searchesPerMinute')), '12');
    await user.type(within(dialog).getByLabelText(label('smart.openingsPerHour')), '40');
    await user.click(within(dialog).getByRole('button', { name: u('smart.save') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(writes()).toEqual([['PUT', 200]]);
    expect(
      screen.getByText(`${u('smart.keysCount', { count: 1 })} · ${u('smart.ownLimits', { searches: 12, openings: 40 })}`),
    ).toBeTruthy();
    const row = await queryOne<{ kid: string; searches: number; openings: number }>(
      server.t.db,
      sql`SELECT jwks->'keys'->0->>'kid' AS kid, searches_per_minute AS searches, openings_per_hour AS openings FROM api_clients WHERE name = ${NAME}`,
    );
    expect(row).toEqual({ kid: 'k1', searches: 12, openings: 40 });
  });
});
