import '../../../test/dom';
// Issue 21 item 8 (decision 035) rendered with Testing Library against the real server: a doctor without a second
// factor is asked for the password (not a code) when re-authentication is needed; a blank password is refused without
// a request, a wrong one is told in the user's language, the right one ends the step. In en, af and ng.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { DEFAULT_PASSWORD, signInAs } from '../../../../server/test/staff';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { ReauthForm } from './reauth-form';

const server = realServer(async (t) => (await signInAs(t, 3)).cookie);
const s = (key: string) => i18n.t(`security:reauth.${key}`);

describe('re-authentication with the password', () => {
  for (const lang of ['en', 'af', 'ng'] as const) {
    it(`asks a user without a second factor for the password, in ${lang}`, async () => {
      await switchLanguage(lang);
      const user = userEvent.setup();
      const onDone = vi.fn();
      renderWithApp(<ReauthForm onDone={onDone} />);
      const field = await screen.findByLabelText((content) => content.replace(/\s*\*$/, '').trim() === s('password'));
      expect(screen.getByText(s('passwordIntro'))).toBeTruthy();
      expect(screen.queryByRole('textbox', { name: /code/i })).toBeNull();
      server.transport.sent.length = 0;

      await user.click(screen.getByRole('button', { name: s('passwordConfirm') }));
      expect(await screen.findByText(i18n.t('validation:passwordRequired'))).toBeTruthy();
      expect(server.transport.sent).toEqual([]);

      await user.type(field, 'not the password');
      await user.click(screen.getByRole('button', { name: s('passwordConfirm') }));
      expect(await screen.findByText(i18n.t('common:errors.INVALID_CREDENTIALS'))).toBeTruthy();
      expect(onDone).not.toHaveBeenCalled();

      await user.type(field, DEFAULT_PASSWORD);
      await user.click(screen.getByRole('button', { name: s('passwordConfirm') }));
      await waitFor(() => expect(onDone).toHaveBeenCalledOnce());
      expect(server.transport.sent.filter((r) => r.method === 'POST').map((r) => [r.url, r.status])).toEqual([
        ['/api/auth/reauth/password', 401],
        ['/api/auth/reauth/password', 200],
      ]);
    });
  }
});
