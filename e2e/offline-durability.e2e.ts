// Offline sync survives the server's death (issue 27, "Done means"): two devices (two browser contexts, two doctors)
// queue 1,000 writes between them while offline; the network comes back (slowed, so that the sync takes a while), the
// server is killed with SIGKILL halfway through and started again on the same data; the devices sync on. Counted
// afterwards: 0 writes lost, 0 duplicated, 0 overwritten (the rows that were there before are at their first version
// with their values), through the API and, on PostgreSQL, in the database itself.
// The engine runs as the app runs it (its own code from the build, over the page's IndexedDB and network); the app's
// own engine in the page stays locked (its key is only in memory after a PIN), so the journey alone decides when the
// device syncs.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { ROLE_IDS } from '../src/contracts/constants';
import type { Db } from '../src/server/db/client';
import { createPatient, type TestPatient } from '../src/server/test/patient-fixtures';
import { createStaffUser } from '../src/server/test/staff';
import { browserAvailable, launchBrowser } from './support/browser';
import { signInThroughPage } from './support/fixtures';
import { pageApi, proveSecondFactor, setOffline, withEngine } from './support/offline';
import { startSeededApp } from './support/record-seed';
import type { RunningApp } from './support/server';

const run = browserAvailable();
const FACILITY = 'Rundu Intermediate Hospital';
const PIN = '318274';
const PER_DEVICE = 500;
const MARK = 'Durability';
const DOCTORS = [
  { firstName: 'Martha', lastName: 'Kandjii', email: 'martha.kandjii@health.gov.na', password: 'offline-durability-one' },
  { firstName: 'Josef', lastName: 'Mukuve', email: 'josef.mukuve@health.gov.na', password: 'offline-durability-two' },
];
const today = (): string => new Date().toISOString().slice(0, 10);

interface Device {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
}
interface AllergyRow {
  id: number;
  allergen: string;
  version: number;
  reaction: string;
}

describe.skipIf(!run)('offline sync through a server killed with SIGKILL (issue 27)', () => {
  let app: RunningApp;
  let patients: TestPatient[];
  let browser: Browser;
  const devices: Device[] = [];
  /** The rows on the records before anything was queued: each must end as it was. */
  let before: AllergyRow[] = [];

  beforeAll(async () => {
    const started = await startSeededApp(async (db: Db) => {
      for (const d of DOCTORS) await createStaffUser(db, { roleId: ROLE_IDS.doctor, facility: FACILITY, ...d });
      const list: TestPatient[] = [];
      for (const lastName of ['Haingura', 'Kudumo', 'Siteketa', 'Mbambo']) list.push(await createPatient(db, { lastName }));
      return list;
    });
    app = started.app;
    patients = started.seeded;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Every allergy on the four records, read by the first doctor through the API. */
  async function allergies(): Promise<AllergyRow[]> {
    const rows: AllergyRow[] = [];
    for (const p of patients) {
      const res = await pageApi(devices[0]!.page, 'GET', `/api/patients/${p.id}/allergies`);
      expect(res.status).toBe(200);
      rows.push(...(res.body as AllergyRow[]));
    }
    return rows;
  }
  const queuedCount = async (): Promise<number> => (await allergies()).filter((r) => r.allergen.startsWith(MARK)).length;

  it('two devices switch offline mode on with the same four records kept', async () => {
    for (const doctor of DOCTORS) {
      const context = await browser.newContext({ locale: 'en-GB' });
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await signInThroughPage(page, app.baseUrl, doctor.email, doctor.password);
      await proveSecondFactor(page);
      for (const p of patients) expect((await pageApi(page, 'POST', `/api/patients/${p.id}/access`, { consent: true })).status).toBe(201);
      devices.push({ context, page, cdp });
    }
    // One row on each record before: the offline adds must leave it as it is.
    for (const p of patients) {
      const body = { allergen: `Before ${p.lastName}`, reaction: 'Rash', severity: 'Mild', reportedDate: today() };
      expect((await pageApi(devices[0]!.page, 'POST', `/api/patients/${p.id}/allergies`, body)).status).toBe(201);
    }
    before = await allergies();
    expect(before).toHaveLength(patients.length);

    for (const [i, d] of devices.entries()) {
      const kept = await withEngine<number>(
        d.page,
        `await engine.enable(arg.label, arg.pin);
         await engine.refresh();
         return (await engine.searchPatients('')).length;`,
        { label: `Ward tablet ${i + 1}`, pin: PIN },
      );
      expect(kept).toBe(patients.length);
    }
  });

  it('queues 1,000 writes between them while offline', async () => {
    const queued = await Promise.all(
      devices.map(async (d, i) => {
        await setOffline(d.cdp, true);
        return withEngine<number>(
          d.page,
          `if (!(await engine.unlock(arg.pin))) throw new Error('PIN refused');
           for (let n = 0; n < arg.count; n++) {
             const patientId = arg.patients[n % arg.patients.length];
             await engine.queueEntry({ id: patientId }, 'allergies', {
               allergen: arg.mark + ' ' + arg.device + '-' + n,
               reaction: 'Itching',
               severity: 'Moderate',
               reportedDate: arg.today,
             });
           }
           return engine.status().waiting;`,
          { pin: PIN, count: PER_DEVICE, patients: patients.map((p) => p.id), mark: MARK, device: i + 1, today: today() },
        );
      }),
    );
    expect(queued).toEqual([PER_DEVICE, PER_DEVICE]);
  });

  it('loses nothing, duplicates nothing and overwrites nothing when the server is killed halfway through the sync', async () => {
    // The link comes back slow (a rural link), so that the sync of 2 x 20 batches takes a while.
    for (const d of devices) {
      await d.cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 400, downloadThroughput: -1, uploadThroughput: -1 });
    }
    const syncs = devices.map((d) =>
      withEngine<unknown>(d.page, `await engine.unlock(arg); await engine.syncNow(); return engine.status().waiting;`, PIN).catch(
        (e: unknown) => e,
      ),
    );
    await expect.poll(queuedCount, { timeout: 120_000, interval: 200 }).toBeGreaterThan(PER_DEVICE / 2);
    await app.crash();
    const atCrash = await Promise.all(syncs);
    await app.restart();
    const stored = await queuedCount();
    expect(stored, `stored ${stored} before the kill; the sync ended before it: ${JSON.stringify(atCrash)}`).toBeLessThan(2 * PER_DEVICE);

    // Each device syncs on after the restart until nothing waits.
    for (const d of devices) await setOffline(d.cdp, false);
    for (const d of devices) {
      const waiting = await withEngine<number>(
        d.page,
        `await engine.unlock(arg);
         for (let round = 0; round < 20 && engine.status().waiting > 0; round++) {
           await engine.syncNow();
           if (engine.status().waiting > 0) await new Promise((r) => setTimeout(r, 500));
         }
         return engine.status().waiting;`,
        PIN,
      );
      expect(waiting).toBe(0);
    }

    const after = await allergies();
    const offline = after.filter((r) => r.allergen.startsWith(MARK));
    expect(offline).toHaveLength(2 * PER_DEVICE); // none lost
    expect(new Set(offline.map((r) => r.allergen)).size).toBe(2 * PER_DEVICE); // none twice
    for (const row of before) expect(after.find((r) => r.id === row.id)).toEqual(row); // none overwritten

    if (app.databaseUrl) {
      // Counted in the database itself: one row and one CREATE audit row per write.
      const client = new pg.Client({ connectionString: app.databaseUrl });
      await client.connect();
      try {
        const rows = await client.query<{ n: number; distinct: number; versions: number }>(
          `SELECT count(*)::int AS n, count(DISTINCT allergen)::int AS distinct, max(version)::int AS versions
             FROM allergies WHERE allergen LIKE $1`,
          [`${MARK} %`],
        );
        expect(rows.rows[0]).toEqual({ n: 2 * PER_DEVICE, distinct: 2 * PER_DEVICE, versions: 1 });
        const audits = await client.query<{ n: number; distinct: number }>(
          `SELECT count(*)::int AS n, count(DISTINCT new_values->>'clientId')::int AS distinct
             FROM audit_logs WHERE action = 'CREATE' AND resource_type = 'ALLERGY' AND new_values ? 'deviceTime'`,
        );
        expect(audits.rows[0]).toEqual({ n: 2 * PER_DEVICE, distinct: 2 * PER_DEVICE });
      } finally {
        await client.end();
      }
    }
  });
});
