import '../../../test/dom';
// Staff sign-in (SPEC §2, §5, §8) rendered with Testing Library against the real server: a form with nothing in it
// sends nothing; the server's refusals (wrong password, then the lockout) reach the user as their code's text in
// the user's language, never the server's English message.
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import { createStaffUser, type StaffUser } from '../../../../server/test/staff';
import { queryRows } from '../../../../server/test/sql';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { LoginScreen } from './login-screen';

let nurse: StaffUser;

const server = realServer(async (t) => {
  nurse = await createStaffUser(t.db, { roleId: 4 });
  return '';
});

function signInForm() {
  renderWithApp(<LoginScreen />);
  return {
    email: screen.getByLabelText(i18n.t('auth:login.email')),
    password: screen.getByLabelText(i18n.t('auth:login.password')),
    submit: screen.getByRole('button', { name: i18n.t('auth:login.signIn') }),
  };
}

const failedSignIns = async (): Promise<number> =>
  (await queryRows(server.t.db, sql`SELECT 1 FROM security_events WHERE event_type = 'LOGIN_FAILURE' AND user_id = ${nurse.id}`)).length;

describe('Staff sign-in form', () => {
  it('checks the fields before sending anything', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const form = signInForm();
    await user.click(form.submit);
    await waitFor(() => expect(form.email.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(form.email.getAttribute('aria-describedby')!)?.textContent).toBe(i18n.t('validation:emailInvalid'));
    expect(form.password.getAttribute('aria-invalid')).toBe('true');
    expect(server.transport.sent).toEqual([]);
  });

  it('tells an Afrikaans user a wrong password in Afrikaans, and the server records the failure', async () => {
    await switchLanguage('af');
    const user = userEvent.setup();
    const form = signInForm();
    await user.type(form.email, nurse.email);
    await user.type(form.password, 'not the password');
    await user.click(form.submit);
    // In the toast and in the form's summary, which takes focus (issue 21 item 16).
    await waitFor(() => expect(screen.getAllByText(i18n.t('common:errors.INVALID_CREDENTIALS'))).toHaveLength(2));
    const messages = screen.getAllByText(i18n.t('common:errors.INVALID_CREDENTIALS'));
    expect(messages.map((m) => m.textContent)).toEqual(['Ongeldige e-pos of wagwoord.', 'Ongeldige e-pos of wagwoord.']);
    await waitFor(() => expect(document.activeElement?.getAttribute('role')).toBe('alert'));
    expect(document.activeElement?.textContent).toContain('Ongeldige e-pos of wagwoord.');
    expect(server.transport.sent.map((r) => [r.method, r.url, r.status])).toEqual([['POST', '/api/auth/login', 401]]);
    expect(await failedSignIns()).toBe(1);
  });

  it('after five wrong passwords tells an Oshiwambo user the account is locked, even with the right password', async () => {
    await switchLanguage('ng');
    const user = userEvent.setup();
    const form = signInForm();
    await user.type(form.email, nurse.email);
    for (let attempt = 2; attempt <= 5; attempt++) {
      await user.clear(form.password);
      await user.type(form.password, `wrong ${attempt}`);
      await user.click(form.submit);
      await waitFor(() => expect(server.transport.sent).toHaveLength(attempt - 1));
    }
    await user.clear(form.password);
    await user.type(form.password, nurse.password);
    await user.click(form.submit);
    await waitFor(() => expect(document.activeElement?.textContent).toContain(i18n.t('common:errors.LOCKED_OUT')));
    expect(i18n.t('common:errors.LOCKED_OUT')).not.toBe(i18n.t('common:errors.LOCKED_OUT', { lng: 'en' }));
    expect(server.transport.sent.at(-1)).toMatchObject({ url: '/api/auth/login', status: 429 });
    expect(await failedSignIns()).toBe(5);
  });
});
