import '../../../test/dom';
// Issue 21 item 5 (decision 034) on the System clients form, against the real server: the System Administrator (no
// records.read, no records.write) may tick only what they may do themselves (AuditEvent: read); every other box is
// greyed out and described by the hint, in each language, and nothing is sent.
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import i18n from '../../../lib/i18n';
import { ROLE_IDS } from '../../../../contracts/constants';
import { permissionsOf } from '../../../../server/test/permission-matrix';
import { signInAs } from '../../../../server/test/staff';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { SystemClients } from './system-clients';

/** What the System Administrator holds (DESIGN.md §4), as the dashboard passes it. */
const SYSADMIN = permissionsOf(ROLE_IDS.systemAdmin);

const server = realServer(async (t) => (await signInAs(t, ROLE_IDS.systemAdmin)).cookie);

const u = (key: string, options?: Record<string, string>) => i18n.t(`users:clients.${key}`, options);
const scopeBox = (type: string, access: 'read' | 'write') =>
  screen.getByRole('checkbox', { name: u('scopeLabel', { type: u(`types.${type}`), access: u(`access.${access}`) }) }) as HTMLInputElement;

describe('System clients: what the creator may give', () => {
  for (const lang of ['en', 'af', 'ng'] as const) {
    it(`greys out the access the System Administrator does not have, with the hint, in ${lang}`, async () => {
      await switchLanguage(lang);
      renderWithApp(<SystemClients permissions={SYSADMIN} />);
      await screen.findByText(u('none'));
      expect(screen.getByText(u('capHint'))).toBeTruthy();
      await waitFor(() => expect(scopeBox('AuditEvent', 'read').disabled).toBe(false));
      for (const [type, access] of [
        ['Patient', 'read'],
        ['Condition', 'read'],
        ['Condition', 'write'],
        ['Observation', 'write'],
      ] as const) {
        const box = scopeBox(type, access);
        expect(box.disabled).toBe(true);
        expect(box.getAttribute('aria-describedby')).toBe('client-scopes-cap');
      }
      expect(server.transport.sent.filter((r) => r.method !== 'GET')).toEqual([]);
    });
  }
});
