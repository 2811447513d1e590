// Journey (decision 021, issue 10 item 15): in Afrikaans and Oshiwambo nothing the server says in English reaches the
// screen: a refused sign-in is told in the user's language (from the error code), and the pending registrations'
// departments, the audit log's action and resource codes and the notifications region are translated.
import { describe, expect, it } from 'vitest';
import { browserAvailable, screenshot } from './support/browser';
import { useJourney } from './support/journey';
import { ADMIN, apiPost, apiSignIn, createFirstAdmin } from './support/fixtures';

const run = browserAvailable();

const LANGS = {
  af: {
    email: 'E-pos',
    password: 'Wagwoord',
    signIn: 'Meld aan',
    invalidCredentials: 'Ongeldige e-pos of wagwoord.',
    region: 'Kennisgewings (F8)',
    department: 'Interne geneeskunde',
    create: 'Skep',
    patient: 'Pasiënt',
    manageUsers: 'Bestuur gebruikers',
  },
  ng: {
    email: 'Imeili',
    password: 'Oshitya shuuholameno',
    signIn: 'Inda mo',
    invalidCredentials: 'Imeili nenge oshitya shuuholameno inashi li mondjila.',
    region: 'Iinyolwa (F8)',
    department: 'Uunamiti womeni',
    create: 'Shita',
    patient: 'Omuvu',
    manageUsers: 'Pangela aalongithi',
  },
} as const;

describe.skipIf(!run)('errors and codes in the user’s language', () => {
  const j = useJourney({
    prepare: async (app) => {
      await createFirstAdmin(app.baseUrl);
      const res = await fetch(`${app.baseUrl}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          firstName: 'Selma',
          lastName: 'Haufiku',
          email: 'selma.haufiku@health.gov.na',
          password: 'stethoscope-42',
          department: 'Internal Medicine',
          facility: 'Katutura State Hospital',
          roleId: 4,
        }),
      });
      if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${await res.text()}`);
      // A CREATE PATIENT row for the audit log.
      const cookie = await apiSignIn(app.baseUrl, ADMIN.email, ADMIN.password);
      await apiPost(app.baseUrl, cookie, '/api/admin/patients', { firstName: 'Ndinelao', lastName: 'Shikongo', sex: 'Female' }, 201);
    },
  });

  for (const [lang, words] of Object.entries(LANGS)) {
    it(`${lang}: a wrong password is refused in ${lang}, never with the server's English`, async () => {
      // Before any page script runs: the app caches the language it detected once its translations load, and a
      // setItem after the first load raced with that write (lost on a fast machine).
      await j.page.addInitScript((l) => localStorage.setItem('language', l), lang);
      await j.page.goto(`${j.app.baseUrl}/login`);
      // The page is in that language once its sign-in button is (the toasts' region now appears with the first toast).
      await j.page.getByRole('button', { name: words.signIn, exact: true }).waitFor();
      await j.page.getByLabel(words.email).fill(ADMIN.email);
      await j.page.getByLabel(new RegExp(`^${words.password}`)).fill('not the password');
      await j.page.getByRole('button', { name: words.signIn, exact: true }).click();
      await j.page.getByText(words.invalidCredentials).first().waitFor();
      await j.page.getByRole('region', { name: words.region }).waitFor({ state: 'attached' }); // the toast's, translated
      expect(await j.page.getByText('Invalid credentials').count()).toBe(0);
    });

    it(`${lang}: shows the pending registration's department and the audit codes in ${lang}`, async () => {
      await j.page.getByLabel(new RegExp(`^${words.password}`)).fill(ADMIN.password);
      await j.page.getByRole('button', { name: words.signIn, exact: true }).click();
      await j.page
        .getByRole('button', { name: new RegExp(ADMIN.firstName) })
        .first()
        .waitFor();
      await j.page.goto(`${j.app.baseUrl}/admin`);
      await j.page.getByRole('tab', { name: words.manageUsers }).click();
      await j.page.getByText('selma.haufiku@health.gov.na').waitFor();
      await j.page.getByText(new RegExp(`^${words.department} · Katutura State Hospital`)).waitFor();
      await j.page.goto(`${j.app.baseUrl}/audit`);
      const table = j.page.locator('table');
      await table.getByText(words.create, { exact: true }).first().waitFor();
      await table.getByText(words.patient, { exact: true }).first().waitFor();
      expect(await table.getByText('CREATE', { exact: true }).count()).toBe(0);
      expect(await table.getByText('PATIENT', { exact: true }).count()).toBe(0);
      await screenshot(j.page, `audit-log-${lang}`);
      await j.page.context().clearCookies();
      await j.page.goto(`${j.app.baseUrl}/login`);
    });
  }

  it('ran without console errors', () => {
    expect(j.consoleErrors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
  });
});
