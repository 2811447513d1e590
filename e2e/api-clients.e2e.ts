// Journey for the FHIR API's system clients (issue 14 item 5, decision 020), on a 375 x 667 phone and by keyboard:
// an administrator opens Admin > System clients, creates a client (name typed, access ticked with the space bar),
// is shown its token once with the warning, and the token then authenticates on /fhir/; a new token (after the
// confirmation, for the lifetime picked) is shown once and the old one is refused at once; revoking it (after the
// confirmation) makes the same token a 401 at once. Its public key and own limits are set in the Keys and limits
// dialog by keyboard (decision 050), and the client then gets an access token at the SMART token endpoint with a JWT
// signed by that key. axe finds no violation and nothing is wider than the phone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { ensureClientCreatorRole } from '../src/server/test/api-client-fixtures';
import { createStaffUser } from '../src/server/test/staff';
import { axeViolations } from './support/axe';
import { browserAvailable, launchBrowser, screenshot, watchConsole } from './support/browser';
import { startSeededApp } from './support/record-seed';
import type { RunningApp } from './support/server';

const run = browserAvailable();
const ADMIN = { firstName: 'Selma', lastName: 'Haufiku', email: 'selma.haufiku@health.gov.na', password: 'system-clients-journey' };
const PHONE = { width: 375, height: 667 };
const CLIENT = 'Katutura laboratory';

const fhirStatus = async (baseUrl: string, token: string): Promise<{ status: number; challenge: string | null }> => {
  const res = await fetch(`${baseUrl}/fhir/R4/metadata`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, challenge: res.headers.get('www-authenticate') };
};

describe.skipIf(!run)('system clients journey (issue 14 item 5)', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let token = '';
  let consoleErrors: string[] = [];

  beforeAll(async () => {
    // The creator holds what the client is given (issue 21 item 5): a test role with users.approve and record access.
    app = (await startSeededApp(async (db) => createStaffUser(db, { roleId: await ensureClientCreatorRole(db), ...ADMIN }))).app;
    browser = await launchBrowser();
    page = await (await browser.newContext({ locale: 'en-GB', viewport: PHONE, isMobile: true, hasTouch: true })).newPage();
    page.setDefaultTimeout(15_000);
    consoleErrors = watchConsole(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('opens System clients in Admin at 375 px: no violation, nothing wider than the phone', async () => {
    await page.goto(`${app.baseUrl}/login`);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel(/^Password/).fill(ADMIN.password);
    await page.getByLabel(/^Password/).press('Enter');
    await page.getByRole('button', { name: 'Admin', exact: true }).click();
    await page.getByRole('tab', { name: 'System clients' }).click();
    await page.getByText('There are no system clients yet.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'system-clients-375');
  });

  it('creates a client by keyboard and shows its token once, with the warning', async () => {
    await page.getByLabel(/^Name of the system/).focus();
    await page.keyboard.type(CLIENT);
    await page.keyboard.press('Tab'); // Patients: Read
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab'); // Diagnoses: Read (Patients cannot be added)
    await page.keyboard.press('Space');
    expect(await page.getByRole('checkbox', { name: 'Diagnoses: Read' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Create client' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Token for ${CLIENT}` }).waitFor();
    await page.getByText('It is shown only this once').waitFor();
    token = await page.getByTestId('client-token').inputValue();
    expect(token).toMatch(/^nhrc_[A-Za-z0-9_-]{43}$/);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'system-clients-token-375');
    await page.getByRole('button', { name: 'I have stored the token' }).click();
    expect(await page.getByTestId('client-token').count()).toBe(0);
    // Scopes in the user's language, not the raw SMART codes (issue 21 item 19).
    await page.getByText('Diagnoses: Read · Patients: Read').waitFor();
  });

  it('the token authenticates on /fhir/ (never as a 401) and not on /api/', async () => {
    expect((await fhirStatus(app.baseUrl, token)).status).not.toBe(401);
    const api = await fetch(`${app.baseUrl}/api/auth/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(api.status).toBe(401);
  });

  it('issues a new token by keyboard for the lifetime picked: focus lands on it, the old token is refused at once (decision 030)', async () => {
    await page.getByText(/^Token expires /).waitFor();
    await page.getByRole('button', { name: `Issue a new token for ${CLIENT}` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Issue a new token?' });
    await dialog.waitFor();
    await dialog.getByLabel('Token valid for').focus();
    await dialog.getByLabel('Token valid for').selectOption('30');
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'system-clients-new-token-dialog-375');
    await dialog.getByRole('button', { name: 'Issue new token' }).focus();
    await page.keyboard.press('Enter');
    const heading = page.getByRole('heading', { name: `Token for ${CLIENT}` });
    await heading.waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'client-token-title');
    const fresh = await page.getByTestId('client-token').inputValue();
    expect(fresh).toMatch(/^nhrc_[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(token);
    await screenshot(page, 'system-clients-new-token-375');
    expect((await fhirStatus(app.baseUrl, token)).status).toBe(401);
    expect((await fhirStatus(app.baseUrl, fresh)).status).not.toBe(401);
    token = fresh;
    await page.getByRole('button', { name: 'I have stored the token' }).click();
    expect(await page.getByTestId('client-token').count()).toBe(0);
  });

  it('sets its public key and own limits by keyboard; the client then gets a SMART access token with a signed JWT (decision 050)', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const kid = 'journey-key';
    const jwks = JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid }] });
    await page.getByRole('button', { name: `Keys and limits of ${CLIENT}` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Keys and limits' });
    await dialog.waitFor();
    const clientId = await dialog.getByLabel('Client ID').inputValue();
    await dialog.getByLabel(/^Public keys/).focus();
    await page.keyboard.insertText(jwks);
    await page.keyboard.press('Tab'); // Searches per minute
    await page.keyboard.type('12');
    await page.keyboard.press('Tab'); // Records opened per hour
    await page.keyboard.type('40');
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'system-clients-keys-dialog-375');
    await dialog.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Signs in with 1 key · Own limits: 12 searches a minute, 40 records an hour').waitFor();
    await screenshot(page, 'system-clients-keys-375');

    // The token endpoint as the SMART configuration names it (the configured public address): the aud of the JWT.
    const config = (await (await fetch(`${app.baseUrl}/fhir/R4/.well-known/smart-configuration`)).json()) as { token_endpoint: string };
    const tokenUrl = config.token_endpoint;
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const input = `${b64({ alg: 'ES384', typ: 'JWT', kid })}.${b64({
      iss: clientId,
      sub: clientId,
      aud: tokenUrl,
      exp: Math.floor(Date.now() / 1000) + 240,
      jti: randomUUID(),
    })}`;
    const jwt = `${input}.${sign('sha384', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
    const res = await fetch(`${app.baseUrl}/fhir/R4/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'system/Condition.rs',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: jwt,
      }).toString(),
    });
    const answer = (await res.json()) as { access_token?: string; error?: string };
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect((await fhirStatus(app.baseUrl, answer.access_token ?? '')).status).not.toBe(401);
  });

  it('revokes it after the confirmation, by keyboard; the token is refused at once', async () => {
    await page.getByRole('button', { name: `Revoke ${CLIENT}` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Revoke this system client?' });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Revoke' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Revoked', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: `Revoke ${CLIENT}` }).count()).toBe(0);
    await screenshot(page, 'system-clients-revoked-375');
    const refused = await fhirStatus(app.baseUrl, token);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('error="invalid_token"');
  });

  it('left the console clean (the signed-out 401 before sign-in aside)', () => {
    expect(consoleErrors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });
});
