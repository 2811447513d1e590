// Journey for offline clinic mode's engine (issue 27, decision 061) in real Chromium against the real server:
// - a doctor proves a second factor (an authenticator app set up through the API, then re-authentication), opens a
//   record with a grant, and switches offline mode on for this browser with a device PIN (the engine's own code,
//   loaded from the build as the app loads it);
// - the IndexedDB store holds the record, and none of the patient's name, number or clinical text in clear (read
//   from the page, every byte of every value);
// - with the network cut through the DevTools protocol, a reload still opens the app (the service worker), and the
//   status bar says "Offline";
// - a wrong PIN is refused, the right one opens the store (offline through the unlock screen, and through the engine);
// - signing out with a change the server has not got asks first (Stay signed in keeps it and the session);
// - signing out wipes the store, the flag and the service worker.
// The device routes are the real server's (src/server/modules/devices).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { createPatient, type TestPatient } from '../src/server/test/patient-fixtures';
import { SAMPLE_INPUTS } from '../src/server/test/record-samples';
import { createStaffUser } from '../src/server/test/staff';
import { axeViolations } from './support/axe';
import { browserAvailable, launchBrowser, screenshot, watchConsole } from './support/browser';
import { signInThroughPage, signOutThroughPage } from './support/fixtures';
import { startSeededApp } from './support/record-seed';
import type { RunningApp } from './support/server';
import { pageApi, storeText, totpOf, withEngine } from './support/offline';

const run = browserAvailable();
const DOCTOR = { firstName: 'Selma', lastName: 'Haufiku', email: 'selma.haufiku@health.gov.na', password: 'offline-engine-journey' };
const PIN = '482913';
const ALLERGEN = 'Cotrimoxazole';

describe.skipIf(!run)('offline engine journey (issue 27)', () => {
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let patient: TestPatient;
  let consoleErrors: string[];
  /** Set while the link is cut: the next step starts with it back. */
  let onTheNetworkAgain: (() => Promise<unknown>) | null = null;

  beforeAll(async () => {
    const started = await startSeededApp(async (db) => {
      await createStaffUser(db, { roleId: 3, ...DOCTOR });
      return createPatient(db, { firstName: 'Ndilimeke', lastName: 'Shaanika' });
    });
    app = started.app;
    patient = started.seeded;
    browser = await launchBrowser();
    context = await browser.newContext({ locale: 'en-GB', viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    consoleErrors = watchConsole(page);
    cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('switches offline mode on after a second factor, keeping the granted record', async () => {
    await signInThroughPage(page, app.baseUrl, DOCTOR.email, DOCTOR.password);
    // No status bar and no offline code on a device without offline mode.
    expect(await page.getByRole('region', { name: 'Offline mode' }).count()).toBe(0);

    // The second factor: an authenticator app set up, then proven in this session.
    const enrol = await pageApi(page, 'POST', '/api/auth/mfa/totp/enrol');
    expect(enrol.status).toBe(200);
    const totp = totpOf((enrol.body as { secret: string }).secret);
    expect((await pageApi(page, 'POST', '/api/auth/mfa/totp/confirm', { code: totp.generate() })).status).toBe(200);
    expect((await pageApi(page, 'POST', '/api/auth/reauth', { code: totp.generate({ timestamp: Date.now() + 30_000 }) })).status).toBe(200);

    // A record opened with a grant, with an allergy on it.
    expect((await pageApi(page, 'POST', `/api/patients/${patient.id}/access`, { consent: true })).status).toBe(201);
    expect(
      (await pageApi(page, 'POST', `/api/patients/${patient.id}/allergies`, { ...SAMPLE_INPUTS.allergies, allergen: ALLERGEN })).status,
    ).toBe(201);
    expect((await pageApi(page, 'GET', `/api/patients/${patient.id}`)).status).toBe(200);

    const kept = await withEngine<{ status: { enabled: boolean; unlocked: boolean }; names: string[] }>(
      page,
      `await engine.enable('Ward tablet', arg);
       await engine.refresh();
       return { status: engine.status(), names: (await engine.searchPatients('')).map((p) => p.lastName) };`,
      PIN,
    );
    expect(kept.status).toMatchObject({ enabled: true, unlocked: true });
    expect(kept.names).toEqual([patient.lastName]);
  });

  it('keeps no name or clinical text in clear in IndexedDB', async () => {
    const stored = await storeText(page);
    expect(stored?.counts).toMatchObject({ meta: 1, records: 1 });
    for (const clear of [patient.firstName, patient.lastName, patient.idNumber, ALLERGEN, SAMPLE_INPUTS.allergies.reaction as string]) {
      expect(stored!.text).not.toContain(clear);
    }
  });

  it('shows the status bar and opens the app again with the network cut (the service worker)', async () => {
    await page.reload();
    const status = page.getByRole('status').filter({ hasText: /^Online/ });
    await status.waitFor();
    await page.getByRole('heading', { name: 'Patient Search' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // The worker is registered on this device only now that offline mode is on, and has cached the app shell.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload(); // the page is now under the worker's control, and works as before
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await page.getByRole('heading', { name: 'Patient Search' }).waitFor();

    await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    onTheNetworkAgain = () =>
      cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.reload();
    await page
      .getByRole('status')
      .filter({ hasText: /^Offline/ })
      .waitFor();
    expect(await page.title()).toBe('National Health Records');
    // The bar fits a 375 px phone and passes axe.
    const bar = await page.getByRole('region', { name: 'Offline mode' }).boundingBox();
    expect(bar!.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'offline-engine-offline-375');

    // Offline, the device PIN unlocks the kept records through the offline screen: a wrong one is refused.
    await page.getByLabel(/^Device PIN/).fill('000000');
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    await page.getByText('Wrong PIN').waitFor();
    await page.getByLabel(/^Device PIN/).fill(PIN);
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    await page.getByTestId('offline-status').filter({ hasNotText: 'locked' }).waitFor();
    expect(await page.getByTestId('offline-status').innerText()).toMatch(/^Offline · last synced \d\d:\d\d$/);
  });
  afterEach(async () => {
    await onTheNetworkAgain?.();
    onTheNetworkAgain = null;
  });

  it('refuses a wrong PIN and opens the store with the right one', async () => {
    const result = await withEngine<{ wrong: boolean; right: boolean; found: number }>(
      page,
      `const wrong = await engine.unlock('000000');
       const right = await engine.unlock(arg.pin);
       return { wrong, right, found: (await engine.searchPatients(arg.name)).length };`,
      { pin: PIN, name: patient.lastName },
    );
    expect(result).toEqual({ wrong: false, right: true, found: 1 });
  });

  it('asks before signing out while a change has not reached the server (375 px, keyboard), and keeps it on "Stay signed in"', async () => {
    // A change the server refuses (it needs attention): it stays in the queue.
    const refused = await withEngine<{ clientId: string; attention: number }>(
      page,
      `await engine.unlock(arg.pin);
       const q = await engine.queueEntry({ id: arg.patientId }, 'vitals', { systolic: 'high' });
       await engine.syncNow().catch(() => undefined);
       return { clientId: q.clientId, attention: engine.status().attention.length };`,
      { pin: PIN, patientId: patient.id },
    );
    expect(refused.attention).toBe(1);
    await page.reload();
    const menu = page.getByRole('button', { name: /^User menu for/ });
    await menu.click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    const dialog = page.getByRole('dialog', { name: 'Changes not sent' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('1 change made on this device has not reached the server.');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Stay signed in');
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'offline-sign-out-unsent-375');

    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    // The menu's item is gone: focus goes to the header's Log out button.
    await page.waitForFunction(() => document.activeElement?.textContent === 'Log out');
    expect((await pageApi(page, 'GET', '/api/auth/user')).status).toBe(200);
    expect((await storeText(page))?.counts).toMatchObject({ meta: 1, queue: 1 });

    // Discarded with a reason (audited), so that the next step signs out with nothing waiting.
    await withEngine(page, `await engine.unlock(arg.pin); await engine.discard(arg.clientId, 'Journey: typed in error');`, {
      pin: PIN,
      clientId: refused.clientId,
    });
  });

  it('wipes the store, the flag and the service worker at sign-out', async () => {
    await page.reload();
    await page.getByRole('button', { name: /^User menu for/ }).waitFor();
    await signOutThroughPage(page);
    expect(await storeText(page)).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('nhr-offline-device'))).toBeNull();
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
    expect(consoleErrors.filter((e) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
  });
});
