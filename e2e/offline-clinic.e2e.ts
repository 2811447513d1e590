// The offline clinic journey of issue 27 ("Done means"), in real Chromium against the real server, at 375 px:
// a nurse signs in, opens two records, switches offline mode on (confirming it is her with her authenticator app),
// loses the network, reloads (the service worker opens the app), unlocks with her device PIN, adds a vital sign and an
// allergy and registers a patient, sees "3 changes waiting", gets the network back and watches them sync; a doctor on
// another device then finds them on the record, and the audit trail holds each with the device's time and the
// server's, and the offline opens in the patient's access history.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { ROLE_IDS } from '../src/contracts/constants';
import type { Db } from '../src/server/db/client';
import { createPatient, type TestPatient } from '../src/server/test/patient-fixtures';
import { createStaffUser } from '../src/server/test/staff';
import { axeViolations } from './support/axe';
import { browserAvailable, launchBrowser, screenshot, watchConsole } from './support/browser';
import { apiSignIn, signInThroughPage } from './support/fixtures';
import { pageApi, proveSecondFactor, setOffline, storeText } from './support/offline';
import { PHONE } from './support/phone-journey';
import { startSeededApp } from './support/record-seed';
import type { RunningApp } from './support/server';

const run = browserAvailable();
const FACILITY = 'Okongo District Hospital';
const NURSE = { firstName: 'Hilma', lastName: 'Nangolo', email: 'hilma.nangolo@health.gov.na', password: 'offline-clinic-journey' };
const DOCTOR = { firstName: 'Tuli', lastName: 'Amadhila', email: 'tuli.amadhila@health.gov.na', password: 'offline-clinic-doctor' };
const AUDITOR = { email: 'auditor.offline@health.gov.na', password: 'offline-clinic-auditor' };
const PIN = '570913';
const ALLERGEN = 'Sulfadoxine-pyrimethamine';
const NEW_PATIENT = { firstName: 'Ndapewa', lastName: 'Kambonde', dateOfBirth: '2001-06-19' };

interface Seeded {
  first: TestPatient;
  second: TestPatient;
}

async function seed(db: Db): Promise<Seeded> {
  const nurse = await createStaffUser(db, { roleId: ROLE_IDS.nurse, facility: FACILITY, ...NURSE });
  // This clinic registers patients at the nurse's desk: the administrator gave her patients.create (DESIGN.md §4 keeps
  // it off the nurse's role; offline registration needs the same permission as online, decision 061).
  await db.execute(sql`INSERT INTO user_permissions (user_id, permission_id, is_granted)
                       SELECT ${nurse.id}, id, true FROM permissions WHERE name = 'patients.create'`);
  await createStaffUser(db, { roleId: ROLE_IDS.doctor, facility: FACILITY, ...DOCTOR });
  await createStaffUser(db, { roleId: ROLE_IDS.auditor, ...AUDITOR });
  const first = await createPatient(db, { firstName: 'Johanna', lastName: 'Iipinge', dateOfBirth: '1988-03-14', sex: 'Female' });
  const second = await createPatient(db, { firstName: 'Petrus', lastName: 'Shivute', dateOfBirth: '1979-10-02', sex: 'Male' });
  return { first, second };
}

describe.skipIf(!run)('offline clinic journey (issue 27)', () => {
  let app: RunningApp;
  let patients: Seeded;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let consoleErrors: string[];
  const statusBar = (): ReturnType<Page['getByRole']> => page.getByRole('region', { name: 'Offline mode' });

  beforeAll(async () => {
    const started = await startSeededApp(seed);
    app = started.app;
    patients = started.seeded;
    browser = await launchBrowser();
    context = await browser.newContext({ locale: 'en-GB', viewport: PHONE, isMobile: true, hasTouch: true });
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

  it('signs in, opens two records and switches offline mode on with the second factor', async () => {
    await signInThroughPage(page, app.baseUrl, NURSE.email, NURSE.password);
    await proveSecondFactor(page);

    for (const patient of [patients.first, patients.second]) {
      expect((await pageApi(page, 'POST', `/api/patients/${patient.id}/access`, { consent: true })).status).toBe(201);
      await page.goto(`${app.baseUrl}/?patient=${patient.id}`);
      await page.getByRole('heading', { name: 'Medical Dashboard' }).waitFor();
    }

    await page.goto(app.baseUrl);
    await page.getByRole('button', { name: /^User menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.getByText('Offline mode on this device', { exact: true }).waitFor();
    await page.getByLabel('Name of this device').fill('Okongo ward tablet');
    await page.getByLabel(/^Device PIN(?! again)/).fill(PIN);
    await page.getByLabel('Device PIN again').fill(PIN);
    await page.getByRole('button', { name: 'Switch on offline mode' }).click();
    // Her second factor was proven minutes ago (setting up the app proves it), as fresh as break-the-glass asks, so
    // enabling goes through without asking again (the refusal and the re-authentication step: devices.test.ts and
    // enable-offline-card.test.tsx).
    await page.getByText('Offline mode is on', { exact: true }).first().waitFor();
    await statusBar()
      .getByText(/^Online/)
      .waitFor();
    // Both records are kept (encrypted) on the device, fetched in the background with the delta read.
    await expect.poll(async () => (await storeText(page))?.counts.records ?? 0, { timeout: 30_000 }).toBe(2);
    // The service worker has the app shell before the link goes.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    expect(await axeViolations(page)).toEqual([]);
  });

  it('opens without a network after a reload, unlocked with the device PIN', async () => {
    await setOffline(cdp, true);
    await page.reload();
    await page.getByRole('heading', { name: 'Unlock offline records' }).waitFor();
    await page.getByLabel('Device PIN').fill(PIN);
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    await page.getByRole('heading', { name: 'Patients kept on this device' }).waitFor();
    await page.getByText('This search covers only the records kept on this device, not all patients.').waitFor();
    await statusBar()
      .getByText(/^Offline/)
      .waitFor();
    for (const p of [patients.first, patients.second]) {
      await page.getByRole('button', { name: `Open record: ${p.lastName}, ${p.firstName}` }).waitFor();
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('adds a vital sign and an allergy and registers a patient offline: 3 changes waiting, none shown as saved', async () => {
    const { first } = patients;
    await page.getByRole('button', { name: `Open record: ${first.lastName}, ${first.firstName}` }).click();
    await page.getByRole('heading', { name: `${first.lastName}, ${first.firstName}` }).waitFor();

    await page.getByRole('button', { name: 'Record Vital Signs' }).click();
    await page.getByLabel('Systolic (mmHg)').fill('146');
    await page.getByLabel('Diastolic (mmHg)').fill('92');
    await page.getByLabel('Temperature (°C)').fill('37.9');
    await page.getByRole('button', { name: 'Keep to send' }).click();
    await page.getByRole('heading', { name: '1 change waiting to be sent' }).waitFor();

    await page.getByRole('button', { name: 'Add Allergy' }).click();
    await page.getByLabel('Allergen').fill(ALLERGEN);
    await page.getByLabel('Reaction').fill('Skin peeling and blisters');
    await page.getByLabel('Severity').selectOption('Severe');
    await page.getByLabel('Reported date').fill(new Date().toISOString().slice(0, 10));
    await page.getByRole('button', { name: 'Keep to send' }).click();
    await page.getByRole('heading', { name: '2 changes waiting to be sent' }).waitFor();
    const waiting = page.getByRole('region', { name: '2 changes waiting to be sent' });
    expect(await waiting.getByText('Waiting to be sent', { exact: true }).count()).toBe(2);

    await page.getByRole('button', { name: 'Back to the offline list' }).click();
    await page.getByRole('button', { name: 'Register a patient' }).click();
    await page.getByLabel('First name').fill(NEW_PATIENT.firstName);
    await page.getByLabel('Last name').fill(NEW_PATIENT.lastName);
    await page.getByLabel('Date of birth').fill(NEW_PATIENT.dateOfBirth);
    await page.getByLabel('Sex').selectOption('Female');
    await page.getByRole('button', { name: 'Register and keep to send' }).click();
    await page.getByText('Registered on this device: the record is provisional until the server has it.').waitFor();

    await statusBar().getByText('3 changes waiting').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'offline-clinic-3-waiting-375');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('syncs when the network is back and says so', async () => {
    await setOffline(cdp, false);
    await cdp.send('Runtime.evaluate', { expression: "window.dispatchEvent(new Event('online'))" });
    await expect.poll(async () => statusBar().textContent(), { timeout: 60_000 }).toMatch(/^Online/);
    await expect.poll(async () => statusBar().textContent(), { timeout: 60_000 }).not.toMatch(/waiting|attention/);
  });

  it("is on another device's screen, and in the audit trail with the device's time and the server's", async () => {
    const { first } = patients;
    const other = await browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });
    try {
      const doctorPage = await other.newPage();
      await signInThroughPage(doctorPage, app.baseUrl, DOCTOR.email, DOCTOR.password);
      expect((await pageApi(doctorPage, 'POST', `/api/patients/${first.id}/access`, { consent: true })).status).toBe(201);
      await doctorPage.goto(`${app.baseUrl}/?patient=${first.id}`);
      await doctorPage.getByRole('heading', { name: 'Medical Dashboard' }).waitFor();
      await doctorPage.getByText(ALLERGEN).first().waitFor();
      await doctorPage.getByText('146/92 mmHg', { exact: false }).first().waitFor();
      // The patient registered offline is found by the doctor's search, one record.
      const found = await pageApi(doctorPage, 'POST', '/api/patients/search', {
        method: 'name-dob',
        lastName: NEW_PATIENT.lastName,
        dateOfBirth: NEW_PATIENT.dateOfBirth,
      });
      expect(found.status).toBe(200);
      expect((found.body as { firstName: string }[]).map((p) => p.firstName)).toEqual([NEW_PATIENT.firstName]);
    } finally {
      await other.close();
    }

    // The auditor's view of the trail: each offline write with both times; the offline opens in the access history.
    const auditor = await apiSignIn(app.baseUrl, AUDITOR.email, AUDITOR.password);
    const res = await fetch(`${app.baseUrl}/api/audit-logs?limit=1000`, { headers: { cookie: auditor } });
    expect(res.status).toBe(200);
    const rows = (await res.json()) as AuditRow[];
    // An entry's chained row carries the event (device, device time, clientId); its payload (the entry) is apart
    // (decision 042): eventValues then holds the event.
    const eventOf = (r: AuditRow): Record<string, unknown> | null => r.eventValues?.newValues ?? r.newValues;
    const offline = rows.filter((r) => typeof eventOf(r)?.deviceTime === 'string');
    const created = offline.filter((r) => r.action === 'CREATE');
    expect(created.map((r) => r.resourceType).sort()).toEqual(['ALLERGY', 'PATIENT', 'VITALS']);
    for (const row of created) {
      const deviceTime = Date.parse(String(eventOf(row)!.deviceTime));
      const serverTime = Date.parse(row.timestamp);
      expect(Number.isNaN(deviceTime)).toBe(false);
      // Written on the device first, stored by the server when the link came back.
      expect(deviceTime).toBeLessThanOrEqual(serverTime);
    }
    const opens = offline.filter((r) => r.action === 'VIEW' && eventOf(r)!.view === 'OFFLINE');
    expect(opens.map((r) => r.patientId)).toContain(patients.first.id);
    expect(consoleErrors.filter((e) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
  });
});

interface AuditRow {
  action: string;
  resourceType: string;
  patientId: number | null;
  timestamp: string;
  newValues: Record<string, unknown> | null;
  eventValues?: { newValues: Record<string, unknown> | null };
}
