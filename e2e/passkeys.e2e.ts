// Journey for passkeys (issue 12 item 2, decision 026) with Chromium's virtual authenticator through CDP
// (WebAuthn.enable, WebAuthn.addVirtualAuthenticator: ctap2, internal, resident key, user verification), at 375 px:
// - a doctor signs in with the password, adds a passkey on My Profile by keyboard, signs out, and signs in with the
//   passkey alone; the password sign-in then offers the passkey as its second step;
// - a patient signs in with NC number, date of birth and PIN, adds a passkey in the portal's Passkeys tab, logs out and
//   signs in with the passkey alone (no NC number, date of birth or PIN);
// - an administrator resets a nurse's lost authenticator app in Manage Users, by keyboard at 375 px;
// - axe finds no violation on the new screens, and the console stays clean.
// WebAuthn needs a secure context with a domain: the pages are opened at http://localhost:<port> (the server's
// default WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { createPatient, type TestPatient } from '../src/server/test/patient-fixtures';
import { activatePatient, PATIENT_PIN } from '../src/server/test/portal-fixtures';
import { createStaffUser } from '../src/server/test/staff';
import { axeViolations } from './support/axe';
import { browserAvailable, launchBrowser, screenshot, watchConsole } from './support/browser';
import { startSeededApp } from './support/record-seed';
import type { RunningApp } from './support/server';

const run = browserAvailable();
const DOCTOR = { firstName: 'Martha', lastName: 'Shikongo', email: 'martha.shikongo@health.gov.na', password: 'passkey-journey-doctor' };
const PHONE = { width: 375, height: 667 };
const ADMIN = { firstName: 'Ndapewa', lastName: 'Nghipondoka', email: 'passkey.admin@health.gov.na', password: 'reset-journey-admin' };
const NURSE = { firstName: 'Selma', lastName: 'Nangolo', email: 'selma.nangolo@health.gov.na', password: 'reset-journey-nurse' };

/** Chromium's virtual authenticator on this page: a platform authenticator with resident keys that verifies the user. */
export async function addVirtualAuthenticator(context: BrowserContext, page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

describe.skipIf(!run)('staff passkey journey (issue 12)', () => {
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId: string;
  let base: string;
  let consoleErrors: string[];
  let recoveryCodes: string[] = [];
  let patient: TestPatient;

  beforeAll(async () => {
    const started = await startSeededApp(async (db) => {
      await createStaffUser(db, { roleId: 3, ...DOCTOR });
      await createStaffUser(db, { roleId: 2, ...ADMIN });
      await createStaffUser(db, { roleId: 4, ...NURSE });
      const p = await createPatient(db, { firstName: 'Ndeshipanda', lastName: 'Hamutenya' });
      await activatePatient(db, { id: p.id, ncNumber: p.idNumber, dateOfBirth: p.dateOfBirth });
      return p;
    });
    app = started.app;
    patient = started.seeded;
    base = app.baseUrl.replace('127.0.0.1', 'localhost');
    browser = await launchBrowser();
    context = await browser.newContext({ locale: 'en-GB', viewport: PHONE, isMobile: true, hasTouch: true });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    consoleErrors = watchConsole(page);
    ({ cdp, authenticatorId } = await addVirtualAuthenticator(context, page));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('adds a passkey on My Profile by keyboard at 375 px', async () => {
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill(DOCTOR.email);
    await page.getByLabel(/^Password/).fill(DOCTOR.password);
    await page.getByLabel(/^Password/).press('Enter');
    await page.getByRole('button', { name: `Open the profile of ${DOCTOR.firstName} ${DOCTOR.lastName}` }).click();
    await page.getByRole('heading', { name: 'Passkeys' }).waitFor();
    await page.getByText('No passkeys yet.').waitFor();
    await page.getByLabel(/^Name of this passkey/).focus();
    await page.keyboard.type('Ward phone');
    await page.keyboard.press('Enter');
    await page.getByTestId('passkey-item').filter({ hasText: 'Ward phone' }).waitFor();
    // The first passkey comes with recovery codes, shown once (issue 21 item 13).
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    recoveryCodes = await page.getByTestId('recovery-code').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'I have saved my codes' }).click();
    expect(await page.getByTestId('recovery-code').count()).toBe(0);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);
    await page.getByRole('heading', { name: 'Passkeys' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'passkeys-profile-375');
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });

  it('signs out and signs in with the passkey alone (no e-mail, no password), by keyboard', async () => {
    await page.getByRole('button', { name: /^User menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    const button = page.getByRole('button', { name: 'Sign in with a passkey' });
    await button.waitFor();
    await screenshot(page, 'passkeys-login-375');
    expect(await axeViolations(page)).toEqual([]);
    await button.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Patient Search' }).waitFor();
    const me = await page.evaluate(
      async () => (await (await fetch('/api/auth/user', { credentials: 'include' })).json()) as { email: string },
    );
    expect(me.email).toBe(DOCTOR.email);
  });

  it('the password sign-in now asks for the passkey as its second step', async () => {
    await page.getByRole('button', { name: /^User menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await page.getByLabel('Email').fill(DOCTOR.email);
    await page.getByLabel(/^Password/).fill(DOCTOR.password);
    await page.getByLabel(/^Password/).press('Enter');
    const usePasskey = page.getByRole('button', { name: 'Use a passkey' });
    await usePasskey.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Use a passkey');
    await screenshot(page, 'passkeys-second-step-375');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Patient Search' }).waitFor();
    // The signed-out pages ask for the user (401) before the login shows: those are expected.
    expect(consoleErrors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
  });

  it('away from the passkey, signs in with the password and a recovery code, by keyboard (issue 21 item 13)', async () => {
    await page.getByRole('button', { name: /^User menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await page.getByLabel('Email').fill(DOCTOR.email);
    await page.getByLabel(/^Password/).fill(DOCTOR.password);
    await page.getByLabel(/^Password/).press('Enter');
    const toggle = page.getByText('Lost your passkey? Use a recovery code');
    await toggle.waitFor();
    await toggle.focus();
    await page.keyboard.press('Enter');
    await page.getByLabel(/^Code from your authenticator app, or a recovery code/).focus();
    await page.keyboard.type(recoveryCodes[0]!);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Patient Search' }).waitFor();
  });

  it('a patient adds a passkey in the portal at 375 px, logs out and signs in with it alone', async () => {
    const patientContext = await browser.newContext({ locale: 'en-GB', viewport: PHONE, isMobile: true, hasTouch: true });
    const p = await patientContext.newPage();
    p.setDefaultTimeout(15_000);
    const errors = watchConsole(p);
    const { cdp: patientCdp, authenticatorId: patientAuthenticator } = await addVirtualAuthenticator(patientContext, p);
    await p.goto(`${base}/patient-login`);
    await p.getByLabel('NC Number').fill(patient.idNumber);
    await p.getByLabel('Date of Birth').fill(patient.dateOfBirth);
    await p.getByLabel('PIN', { exact: true }).fill(PATIENT_PIN);
    await p.getByRole('button', { name: 'Access My Records' }).click();
    await p.getByRole('tab', { name: 'Passkeys' }).click();
    await p.getByRole('heading', { name: 'Passkeys' }).waitFor();
    await p.getByLabel(/^Name of this passkey/).focus();
    await p.keyboard.type('My phone');
    await p.keyboard.press('Enter');
    await p.getByTestId('passkey-item').filter({ hasText: 'My phone' }).waitFor();
    expect((await patientCdp.send('WebAuthn.getCredentials', { authenticatorId: patientAuthenticator })).credentials).toHaveLength(1);
    await screenshot(p, 'passkeys-portal-375');
    expect(await axeViolations(p)).toEqual([]);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await p.getByRole('button', { name: 'Logout' }).click();
    await p.waitForURL('**/patient-login');
    const button = p.getByRole('button', { name: 'Sign in with a passkey' });
    await button.waitFor();
    await screenshot(p, 'passkeys-patient-login-375');
    expect(await axeViolations(p)).toEqual([]);
    await button.focus();
    await p.keyboard.press('Enter');
    await p.getByRole('tab', { name: 'Passkeys' }).waitFor();
    await p.waitForURL('**/patient-portal');

    // A session opened with the passkey enters the PIN before adding another passkey (issue 21 item 2); a wrong PIN is
    // said beside the field and the session stays open.
    await p.getByRole('tab', { name: 'Passkeys' }).click();
    await p.getByLabel(/^Name of this passkey/).fill('Tablet');
    await p.getByLabel(/^Name of this passkey/).press('Enter');
    await p.getByText('To add a passkey, enter your portal PIN again.').waitFor();
    const pinField = p.getByLabel(/^PIN/);
    await pinField.fill('000000');
    await pinField.press('Enter');
    await p.getByText('That PIN is not correct.', { exact: false }).waitFor();
    expect(await axeViolations(p)).toEqual([]);
    await p.getByRole('button', { name: 'Cancel' }).click();
    await p.getByText('To add a passkey, enter your portal PIN again.').waitFor({ state: 'hidden' });
    expect(await p.getByTestId('passkey-item').count()).toBe(1);
    expect(errors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
    await patientContext.close();
  });

  it("an administrator resets a nurse's lost second factor in Manage Users, by keyboard at 375 px", async () => {
    // The nurse set up an app (through the API, as the profile does); then lost the phone.
    const api = async (path: string, cookie: string, body?: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: body === undefined ? { cookie } : { 'content-type': 'application/json', cookie },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: NURSE.email, password: NURSE.password }),
    });
    const nurseCookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const { secret } = (await (await api('/api/auth/mfa/totp/enrol', nurseCookie)).json()) as { secret: string };
    const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();
    expect((await api('/api/auth/mfa/totp/confirm', nurseCookie, { code })).status).toBe(200);

    const adminContext = await browser.newContext({ locale: 'en-GB', viewport: PHONE, isMobile: true, hasTouch: true });
    const a = await adminContext.newPage();
    a.setDefaultTimeout(15_000);
    const errors = watchConsole(a);
    await a.goto(`${base}/login`);
    await a.getByLabel('Email').fill(ADMIN.email);
    await a.getByLabel(/^Password/).fill(ADMIN.password);
    await a.getByLabel(/^Password/).press('Enter');
    await a.getByRole('button', { name: /^User menu for/ }).waitFor();
    await a.goto(`${base}/admin`);
    await a.getByRole('tab', { name: 'Manage Users' }).click();
    // Everyone with a second factor is listed, the passkey-only doctor too (issue 21 item 13).
    await a.getByRole('button', { name: `Reset the second factors of ${DOCTOR.firstName} ${DOCTOR.lastName}` }).waitFor();
    const reset = a.getByRole('button', { name: `Reset the second factors of ${NURSE.firstName} ${NURSE.lastName}` });
    await reset.scrollIntoViewIfNeeded();
    await screenshot(a, 'totp-reset-375');
    expect(await axeViolations(a)).toEqual([]);
    expect(await a.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await reset.focus();
    await a.keyboard.press('Enter');
    await a.getByRole('dialog', { name: 'Reset the second factors?' }).waitFor();
    await screenshot(a, 'totp-reset-dialog-375');
    expect(await axeViolations(a)).toEqual([]);
    await a.getByRole('button', { name: 'Reset second factors' }).focus();
    await a.keyboard.press('Enter');
    await reset.waitFor({ state: 'detached' });
    // The nurse's next sign-in needs the password only (the nurse's role keeps the app once enrolled, not required).
    // Polled: the button may leave the list as it re-renders before the reset's answer (failed in CI under load).
    const nextSignIn = async (): Promise<string | undefined> => {
      const next = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: NURSE.email, password: NURSE.password }),
      });
      return ((await next.json()) as { secondFactor?: string }).secondFactor;
    };
    await expect.poll(nextSignIn, { timeout: 10_000, interval: 250 }).toBeUndefined();
    expect(errors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
    await adminContext.close();
  });
});
